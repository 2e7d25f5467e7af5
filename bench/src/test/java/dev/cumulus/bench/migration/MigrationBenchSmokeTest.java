package dev.cumulus.bench.migration;

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
 * System test: {@code cumulus bench migration --quick} (5 node processes) prints every row of the three tables and
 * the three goal lines, loses and doubles no call, and leaves no process and no directory behind. It checks the
 * structure, never a timing.
 */
class MigrationBenchSmokeTest {
    private static final String NUM = "([\\d.]+)";
    /** state, moves, pause p50, p99, call p50, p99, ratio. */
    private static final Pattern PAUSE = Pattern.compile("^  (1 KiB|64 KiB|1 MiB|16 MiB|64 MiB)\\s+(\\d+)"
        + ("\\s+" + NUM).repeat(5) + "$");
    /** chain, calls, count, p50, p99, x direct. */
    private static final Pattern CHAIN = Pattern.compile("^  ([13])\\s+(first|later|direct)\\s+(\\d+)"
        + ("\\s+" + NUM).repeat(3) + "$");
    /** kind, object, moves, moves/s, calls/s, x static, lost, doubled. */
    private static final Pattern LOAD = Pattern.compile("^  (DELAYED|SAFE_POINT)\\s+(static|moving)\\s+(\\S+)\\s+(\\S+)"
        + "\\s+" + NUM + "\\s+(\\S+)\\s+(\\d+)\\s+(\\d+)$");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryRowAndLosesNoCall() throws IOException {
        Set<String> before = BenchDirectories.named("cumulus-bench-migration");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = MigrationBench.run(true, "backoff", new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        List<String> sizes = matches(text, PAUSE).stream().map(m -> m.group(1)).toList();
        assertEquals(List.of("1 KiB", "64 KiB", "1 MiB", "16 MiB", "64 MiB"), sizes, text);
        List<String> chains = matches(text, CHAIN).stream().map(m -> m.group(1) + " " + m.group(2)).toList();
        assertEquals(List.of("1 first", "1 later", "1 direct", "3 first", "3 later", "3 direct"), chains, text);
        List<Matcher> load = matches(text, LOAD);
        assertEquals(List.of("DELAYED static", "DELAYED moving", "SAFE_POINT static", "SAFE_POINT moving"),
            load.stream().map(m -> m.group(1) + " " + m.group(2)).toList(), text);
        for (Matcher m : load) {
            assertEquals("0", m.group(7), "lost calls: " + m.group() + "\n" + text);
            assertEquals("0", m.group(8), "doubled calls: " + m.group() + "\n" + text);
            if (m.group(2).equals("moving")) {
                assertTrue(Long.parseLong(m.group(3)) > 0, "the object moved: " + m.group());
            }
        }
        List<String> goals = text.lines().filter(l -> l.matches("  goal: .*: (MET|NOT MET)")).toList();
        assertEquals(3, goals.size(), text);
        assertTrue(goals.get(2).endsWith(": 0: MET"), text);

        assertEquals(before, BenchDirectories.named("cumulus-bench-migration"),
            "the bench left Aeron or run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }

    private static List<Matcher> matches(String text, Pattern p) {
        return text.lines().map(p::matcher).filter(Matcher::matches).toList();
    }
}
