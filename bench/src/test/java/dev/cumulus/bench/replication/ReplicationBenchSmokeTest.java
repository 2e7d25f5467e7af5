package dev.cumulus.bench.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * System test: the replication suite with --quick on 2 node processes (both sequencer modes and JGroups, no
 * wide-area part) prints every row of Table 1 with positive numbers, ratios that do not round to 0, and the goals.
 */
class ReplicationBenchSmokeTest {
    private static final String NUM = "(-|[\\d.]+)";
    private static final Pattern ROW = Pattern.compile("^  (.+?)\\s+" + NUM + "\\s+" + NUM + "\\s+" + NUM + "\\s+"
        + NUM + "\\s+" + NUM + "\\s+" + NUM + "$");

    @Test
    @Timeout(180)
    void quickRunOnTwoProcessesPrintsEveryRowWithPositiveNumbers() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ReplicationBench.run(
            new ReplicationBench.Options(List.of(2), true, ReplicationBench.MODES, ReplicationBench.Parts.NO_WAN,
                "backoff"),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        assertTrue(text.contains("Table 1, 2 processes"), text);

        // label -> how many of (read p50, read p99, write p50, write p99, gap p50, gap p99) it must have
        List<Object[]> expected = List.of(
            new Object[] {ReplicationBench.PLAIN, 4},
            new Object[] {ReplicationBench.PLAIN_CLASS, 4},
            new Object[] {"cumulus rpc (migrating run)", 2},
            new Object[] {"cumulus rpc (static run)", 2},
            new Object[] {"replicated, migrating", 6},
            new Object[] {"replicated, static", 6},
            new Object[] {ReplicationBench.JGROUPS, 4},
            new Object[] {ReplicationBench.JGROUPS_RTT, 2});
        for (Object[] e : expected) {
            String label = (String) e[0];
            Matcher m = text.lines().map(ROW::matcher).filter(x -> x.matches() && x.group(1).equals(label))
                .findFirst().orElse(null);
            if (m == null) {
                fail("no row '" + label + "' in:\n" + text);
            }
            int numbers = 0;
            for (int g = 2; g <= 7; g++) {
                if (!m.group(g).equals("-")) {
                    numbers++;
                    assertTrue(Double.parseDouble(m.group(g)) > 0, label + ": column " + (g - 1) + " is "
                        + m.group(g) + " in:\n" + text);
                }
            }
            assertEquals((int) e[1], numbers, label + ": numbers expected in:\n" + text);
        }
        List<String> ratios = text.lines().filter(l -> l.startsWith("  ratios, ")).toList();
        assertEquals(2, ratios.size(), text);
        Matcher r = Pattern.compile("[\\d.]+")
            .matcher(String.join(" ", ratios).replaceAll("ratios, \\w+ +p50 \\(p99\\):", ""));
        int count = 0;
        while (r.find()) {
            count++;
            assertTrue(Double.parseDouble(r.group()) > 0, "a ratio printed as 0 in:\n" + text);
        }
        assertEquals(16, count, "8 ratios per mode expected in:\n" + text);
        assertEquals(6, text.lines().filter(l -> l.matches("  goal \\[\\w+]: .*: (MET|NOT MET)")).count(), text);
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }
}
