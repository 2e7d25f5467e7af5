package dev.cumulus.cli.profile;

import dev.cumulus.profiler.report.RunProfile;
import dev.cumulus.profiler.report.TextReport;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The per-object profile of a run as the CLI uses it: a thin view of the profiler's
 * {@link dev.cumulus.profiler.report.RunProfile} (which reads the run directory's {@code node-<i>.jfr} files) and its
 * text tables ({@link dev.cumulus.profiler.report.TextReport}). Used by {@code cumulus run --profile} after a run and by
 * {@code cumulus profile RUN_DIR}. Never throws for a missing or damaged recording: it names the file in the report.
 */
public final class ProfileReport {
    /** Statistics of one object's method (a view of the profiler's). */
    public static final class CallStats {
        private final RunProfile.CallStats s;

        CallStats(RunProfile.CallStats s) {
            this.s = s;
        }

        public long calls() { return s.calls(); }
        public long asyncCalls() { return s.asyncCalls(); }
        public long failedCalls() { return s.failedCalls(); }
        public long requestBytes() { return s.requestBytes(); }
        public long replyBytes() { return s.replyBytes(); }
        public TreeSet<Integer> callers() { return s.callers(); }
        public TreeSet<Integer> targets() { return s.targets(); }

        /** Latency percentile (nearest rank), in microseconds. */
        public double percentileMicros(double p) {
            return s.percentileMicros(p);
        }
    }

    private final RunProfile profile;

    private ProfileReport(RunProfile profile) {
        this.profile = profile;
    }

    /** Reads every {@code node-<i>.jfr} in {@code runDir}; notes expected recordings that are missing. */
    public static ProfileReport read(Path runDir) {
        return new ProfileReport(RunProfile.read(runDir));
    }

    /** The profiler's full model (clouds, tuple elements, arrays, per node totals, sequencer location). */
    public RunProfile profile() {
        return profile;
    }

    /** Remote-call statistics: object → method → stats, both sorted by name. */
    public Map<String, Map<String, CallStats>> calls() {
        return view(profile.calls());
    }

    /** Replicated writes: cloud → method → stats (calls = writes, latency = until the local replica applied it). */
    public Map<String, Map<String, CallStats>> writes() {
        return view(profile.writes());
    }

    /** How often the sequencer arrived at each node. */
    public Map<Integer, Long> sequencerArrivals() {
        return profile.sequencerArrivals();
    }

    public List<RunProfile.Lifecycle> lifecycle() {
        return profile.lifecycle();
    }

    /** File names of the recordings read. */
    public List<String> recordings() {
        return profile.recordings();
    }

    /** Missing or unreadable recordings. */
    public List<String> problems() {
        return profile.problems();
    }

    /** Writes the report as plain text tables. */
    public void print(PrintStream out) {
        TextReport.print(profile, out);
    }

    private static Map<String, Map<String, CallStats>> view(Map<String, Map<String, RunProfile.CallStats>> m) {
        Map<String, Map<String, CallStats>> out = new LinkedHashMap<>();
        m.forEach((k, methods) -> {
            Map<String, CallStats> inner = new LinkedHashMap<>();
            methods.forEach((method, s) -> inner.put(method, new CallStats(s)));
            out.put(k, inner);
        });
        return out;
    }
}
