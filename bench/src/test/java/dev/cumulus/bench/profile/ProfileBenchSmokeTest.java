package dev.cumulus.bench.profile;

import dev.cumulus.bench.BenchDirectories;
import dev.cumulus.bench.LauncherRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System test: {@code cumulus bench profile --quick} runs the checkout's own {@code cumulus run} in every mode on both
 * workloads, prints every row of both tables and the four goal lines, and leaves no process and no run directory
 * behind, with the TSP's compute and CPU times per mode. It checks the structure, never a timing. Needs {@code ./build} (the command line's jar and the examples).
 */
class ProfileBenchSmokeTest {
    private static final String NUM = "([\\d.]+)";
    private static final String MODE = "(plain|JDK JFR|--profile|--live)";
    /** mode, median, lowest, highest, x plain, paired x: the compute time's rows, then the CPU time's. */
    private static final Pattern TSP = Pattern.compile("^  " + MODE + ("\\s+" + NUM).repeat(5) + "$");
    /** mode, p50, p50 spread, p99, p99 spread, x plain, p99 x. */
    private static final Pattern READS = Pattern.compile("^  " + MODE + "\\s+" + NUM + "\\s+" + NUM + "-" + NUM
        + "\\s+" + NUM + "\\s+" + NUM + "-" + NUM + "\\s+" + NUM + "\\s+" + NUM + "$");

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryModeOfBothWorkloadsAndLeavesNothingBehind() throws IOException {
        Set<String> before = BenchDirectories.named(LauncherRun.DIRECTORY_PREFIX);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ProfileBench.run(true, 0, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        List<String> modes = List.of("plain", "JDK JFR", "--profile", "--live");
        List<Matcher> tsp = matches(text, TSP);
        List<String> twice = new ArrayList<>(modes);
        twice.addAll(modes);
        assertEquals(twice, tsp.stream().map(m -> m.group(1)).toList(), text);
        for (Matcher plain : List.of(tsp.getFirst(), tsp.get(modes.size()))) {
            assertEquals("1.000", plain.group(5), "plain is the baseline: " + text);
            assertEquals("1.000", plain.group(6), "plain is the baseline: " + text);
        }
        for (Matcher m : tsp) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, "a compute time and a CPU time: " + m.group());
        }
        assertTrue(text.contains("(a'') Node threads"), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  the launcher JVM itself") && l.contains("--live ")), text);
        assertTrue(text.contains("the nodes (reader + launcher) over --profile's launcher, median: "), text);
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  node CPU time, x plain")), text);
        List<Matcher> reads = matches(text, READS);
        assertEquals(modes, reads.stream().map(m -> m.group(1)).toList(), text);
        for (Matcher m : reads) {
            assertTrue(Double.parseDouble(m.group(2)) > 0 && Double.parseDouble(m.group(5)) > 0,
                "read figures: " + m.group());
        }
        assertEquals(3, text.lines().filter(l -> l.startsWith("  rounds: plain ")).count(), text);
        List<String> goals = text.lines().filter(l -> l.matches("  goal: .* <= 1\\.02x plain: [\\d.]+x: (MET|NOT MET)"))
            .toList();
        assertEquals(4, goals.size(), text);
        assertTrue(text.contains("load average at the start"), text);

        assertEquals(before, BenchDirectories.named(LauncherRun.DIRECTORY_PREFIX),
            "the bench left run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }

    private static List<Matcher> matches(String text, Pattern p) {
        return text.lines().map(p::matcher).filter(Matcher::matches).toList();
    }
}
