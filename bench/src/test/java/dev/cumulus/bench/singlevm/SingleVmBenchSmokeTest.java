package dev.cumulus.bench.singlevm;

import dev.cumulus.bench.BenchDirectories;
import dev.cumulus.bench.LauncherRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System test: {@code cumulus bench single-vm --quick} runs the map colouring under plain java and under the
 * checkout's own {@code cumulus run --single-vm} on 1 and 2 nodes, prints every row of both tables (steady state,
 * first search), the cost of a search state per mode and per node, and both goal lines, and leaves no process and no
 * run directory behind. It checks the structure, never a timing. Needs {@code ./build} (the command line's jar and the
 * examples).
 */
class SingleVmBenchSmokeTest {
    private static final String NUM = "([\\d.]+)";
    /** mode, median, lowest, highest, x plain. */
    private static final Pattern ROW = Pattern.compile("^  (plain java|1 node|2 nodes)" + ("\\s+" + NUM).repeat(4)
        + "$");

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryModeAndBothGoalsAndLeavesNothingBehind() throws IOException {
        Set<String> before = BenchDirectories.named(LauncherRun.DIRECTORY_PREFIX);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = SingleVmBench.run(true, 0, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        // two tables: the steady state (searches after the first), then the first search
        assertTrue(text.contains("searches 2 to 2 of each run") && text.contains("the first search of each run"),
            text);
        List<Matcher> rows = text.lines().map(ROW::matcher).filter(Matcher::matches).toList();
        assertEquals(List.of("plain java", "1 node", "2 nodes", "plain java", "1 node", "2 nodes"),
            rows.stream().map(m -> m.group(1)).toList(), text);
        assertEquals("1.000", rows.get(0).group(5), "plain java is the baseline: " + text);
        assertEquals("1.000", rows.get(3).group(5), "plain java is the baseline: " + text);
        for (Matcher m : rows) {
            assertTrue(Double.parseDouble(m.group(2)) > 0, "a search time: " + m.group());
        }
        assertEquals(2, text.lines().filter(l -> l.startsWith("  rounds: plain java ")).count(), text);
        assertTrue(text.lines().anyMatch(l -> l.matches("  \\(goals on the steady state, as Hyperion's table; the "
            + "first search: 1 node [\\d.]+x, 2 nodes [\\d.]+x plain java\\)")), text);
        List<String> goals = text.lines()
            .filter(l -> l.matches("  goal: (1 node \\(the in-line checks\\) <= 1\\.3|2 nodes <= 1\\.5)x plain java: "
                + "[\\d.]+x: (MET|NOT MET)"))
            .toList();
        assertEquals(2, goals.size(), text);
        assertTrue(text.contains("load average at the start"), text);
        // what a search state cost in each mode, and on 2 nodes on each node, from the example's --stats lines
        List<String> costs = text.lines()
            .filter(l -> l.matches("  (plain java|1 node|2 nodes, node [01]) +[\\d.]+ ns +[\\d.]+x plain java"
                + "(, +\\d+% of the states)?"))
            .map(l -> l.substring(2, l.indexOf("  ", 2)).strip())
            .toList();
        assertEquals(List.of("plain java", "1 node", "2 nodes, node 0", "2 nodes, node 1"), costs, text);

        assertEquals(before, BenchDirectories.named(LauncherRun.DIRECTORY_PREFIX),
            "the bench left run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }
}
