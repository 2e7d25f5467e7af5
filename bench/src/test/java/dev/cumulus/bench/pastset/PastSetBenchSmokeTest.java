package dev.cumulus.bench.pastset;

import dev.cumulus.bench.BenchDirectories;
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
 * System test: {@code cumulus bench pastset --quick} (3 Cumulus node processes, 3 Hazelcast members, ring of 2)
 * prints every row with positive numbers and the three goal lines, and leaves no process and no directory behind.
 */
class PastSetBenchSmokeTest {
    private static final String NUM = "([\\d.]+)";
    private static final String SIZE = "(1 B|64 B|1 KiB|8 KiB|32 KiB|256 KiB)";
    /** payload, rpc p50, p99 | ours p50, p99, x rpc | hz p50, p99, hz/ours, p99 h/o. */
    private static final Pattern FIG3 = Pattern.compile("^  " + SIZE + "\\s+" + NUM + "\\s+" + NUM + " \\|\\s+" + NUM
        + "\\s+" + NUM + "\\s+" + NUM + " \\|\\s+" + NUM + "\\s+" + NUM + "\\s+" + NUM + "\\s+" + NUM + "$");
    /** N, payload | ours p50, p99 | hz p50, p99 | hz/ours, p99 h/o. */
    private static final Pattern RING = Pattern.compile("^  \\d+\\s+" + SIZE + "\\s+\\|\\s+" + NUM + "\\s+" + NUM
        + " \\|\\s+" + NUM + "\\s+" + NUM + " \\|\\s+" + NUM + "\\s+" + NUM + "$");
    /** tuple, ours MB/s, hz MB/s, ours/hz. */
    private static final Pattern BW = Pattern.compile("^  " + SIZE + "\\s+" + NUM + "\\s+" + NUM + "\\s+" + NUM + "$");
    /** payload, p50 (or nothing, p99), rpc, move, obs, obs(i), sum, rt, rt/sum, rt/rpc, async. */
    private static final Pattern BREAKDOWN = Pattern.compile("^  (" + SIZE.substring(1, SIZE.length() - 1)
        + "|\\s*)\\s+p(?:50|99)" + ("\\s+" + NUM).repeat(9) + "$");

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryRowWithPositiveNumbersAndTheGoals() throws IOException {
        Set<String> before = BenchDirectories.ofThisProcess();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PastSetBench.run(new PastSetBench.Options(List.of(2), true, "backoff"),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        assertEquals(10, rows(text, FIG3, 9), "Figure 3: 5 payloads x 2 placements expected in:\n" + text);
        assertEquals(2, rows(text, RING, 6), "ring of 2: 2 payloads expected in:\n" + text);
        assertEquals(1, rows(text, BW, 3), "bandwidth: 1 tuple size expected in:\n" + text);
        assertEquals(2, rows(text, BREAKDOWN, 9), "breakdown: 1 payload (p50 and p99 rows) expected in:\n" + text);
        List<String> goals = text.lines().filter(l -> l.matches("  goal: .*: (MET|NOT MET)")).toList();
        assertEquals(3, goals.size(), text);
        assertTrue(goals.get(0).contains("rpc round trip"), text);
        assertTrue(goals.get(1).contains("remote move + remote observe)"), text);
        assertTrue(goals.get(2).contains("Hazelcast"), text);

        assertEquals(before, BenchDirectories.ofThisProcess(),
            "the bench left Aeron or run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }

    /** Counts the lines matching {@code row}, checking that it has {@code numbers} numbers, each > 0. */
    private static int rows(String text, Pattern row, int numbers) {
        int count = 0;
        for (String l : text.lines().toList()) {
            Matcher m = row.matcher(l);
            if (!m.matches()) {
                continue;
            }
            count++;
            int found = 0;
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g).matches("[\\d.]+")) {
                    found++;
                    assertTrue(Double.parseDouble(m.group(g)) > 0, "a number is not positive in: " + l + "\n" + text);
                }
            }
            assertEquals(numbers, found, "numbers in: " + l + "\n" + text);
        }
        return count;
    }
}
