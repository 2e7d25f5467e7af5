package dev.cumulus.bench.arrays;

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
 * System test: {@code cumulus bench arrays --quick} (2 node processes for the misses, LocalCluster for the rest)
 * prints every row with positive numbers and both goal lines, and leaves no process and no directory behind.
 */
class ArraysBenchSmokeTest {
    /** label, p50, unit, p99, unit, optional ratios. */
    private static final Pattern ROW = Pattern.compile("^\\s+(.+?)\\s+p50\\s+([\\d.]+) (ns|us|ms)\\s+p99\\s+([\\d.]+) "
        + "(ns|us|ms)(?:\\s+ratio p50 ([\\d.]+)x\\s+p99 ([\\d.]+)x)?$");

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryRowWithPositiveNumbersAndBothGoals() throws IOException {
        Set<String> before = BenchDirectories.ofThisProcess();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ArraysBench.run(true, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        int rows = 0;
        int missRows = 0;
        for (String l : text.lines().toList()) {
            Matcher m = ROW.matcher(l);
            if (!m.matches()) {
                continue;
            }
            rows++;
            missRows += m.group(1).contains("miss, owner is the home") ? 1 : 0;
            for (int g : new int[] {2, 4, 6, 7}) {
                if (m.group(g) != null) {
                    assertTrue(Double.parseDouble(m.group(g)) > 0, "a number is not positive in: " + l + "\n" + text);
                }
            }
        }
        // hits 2; misses: processes 1 + 3 per partition size (--quick: 2 sizes), LocalCluster 4; sharers 6;
        // barriers 2 x 9; kernels 6
        assertEquals(2 + 7 + 4 + 6 + 18 + 6, rows, text);
        assertEquals(6, missRows, text);
        List<String> goals = text.lines().filter(l -> l.startsWith("goal: ")).toList();
        assertEquals(2, goals.size(), text);
        assertTrue(goals.get(0).contains("hit within 3x") && goals.get(1).contains("miss within 2.5x"), text);
        assertTrue(goals.get(1).contains("returning the same partition"), text);

        assertEquals(before, BenchDirectories.ofThisProcess(),
            "the bench left Aeron or run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }
}
