package dev.cumulus.bench.profile;

import java.nio.file.Path;
import java.util.List;

/** The ways the profile suite runs a program: plain, under the JDK's own recording, profiled, profiled live. */
enum ProfileMode {
    /** {@code cumulus run} with no profiling: the baseline every ratio divides by. */
    PLAIN("plain"),
    /**
     * Every node under the JDK's default recording ({@code -XX:StartFlightRecording} with the JDK's
     * {@code default.jfc}, dumped on exit): what JFR itself costs, without anything Cumulus adds.
     */
    JFR("JDK JFR"),
    /** {@code cumulus run --profile}. */
    PROFILE("--profile"),
    /** {@code cumulus run --live}. */
    LIVE("--live");

    private final String label;

    ProfileMode(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    /** The options of {@code cumulus run} for this mode; {@code scratch} is a directory for recording files. */
    List<String> launcherOptions(Path scratch) {
        return switch (this) {
            case PLAIN -> List.of();
            case JFR -> List.of(
                "--jvm-arg=-XX:StartFlightRecording=filename=" + scratch.resolve("jdk-%p.jfr") + ",dumponexit=true",
                "--jvm-arg=-Xlog:jfr+startup=error");
            case PROFILE -> List.of("--profile");
            case LIVE -> List.of("--live");
        };
    }
}
