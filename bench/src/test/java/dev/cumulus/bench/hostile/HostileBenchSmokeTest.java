package dev.cumulus.bench.hostile;

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
 * System test: {@code cumulus bench hostile --quick} (an IPC run and a UDP run of 2 node processes) prints a row for
 * every hostile input, each sent and refused every time, node 0 still serving after both runs, both goal lines, and
 * leaves no process and no directory behind. It checks the structure and the refusals, never a timing.
 */
class HostileBenchSmokeTest {
    private static final String NUM = "([\\d.]+)";
    /** input, run, bytes, sent, refused, p50, p99, max, what and how. */
    private static final Pattern INPUT = Pattern.compile("^  (\\w+)\\s+(ipc|udp)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)"
        + ("\\s+" + NUM).repeat(3) + "\\s+\\S.*$");
    /** run, calls, before, after, ratio, heap before, heap after, serving. */
    private static final Pattern SERVING = Pattern.compile("^  (ipc|udp)\\s+(\\d+)" + ("\\s+" + NUM).repeat(2)
        + "\\s+" + NUM + " x" + ("\\s+" + NUM).repeat(2) + "\\s+(yes|no)$");

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void quickRunRefusesEveryInputAndTheNodeStillServes() throws IOException {
        Set<String> before = BenchDirectories.ofThisProcess();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = HostileBench.run(true, "backoff", new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);

        List<Matcher> inputs = matches(text, INPUT);
        assertEquals(List.of("bomb ipc", "colliders ipc", "nulls ipc", "stranger ipc", "chunk ipc", "garbage ipc",
            "setup udp", "forged udp"), inputs.stream().map(m -> m.group(1) + " " + m.group(2)).toList(), text);
        for (Matcher m : inputs) {
            assertTrue(Integer.parseInt(m.group(4)) > 0, "sent: " + m.group());
            assertEquals(m.group(4), m.group(5), "every send refused: " + m.group() + "\n" + text);
            for (int g = 6; g <= 8; g++) {
                Double.parseDouble(m.group(g));
            }
        }
        List<Matcher> serving = matches(text, SERVING);
        assertEquals(List.of("ipc", "udp"), serving.stream().map(m -> m.group(1)).toList(), text);
        for (Matcher m : serving) {
            assertEquals("yes", m.group(8), "node 0 still serving: " + m.group());
        }
        assertTrue(text.lines().anyMatch(l -> l.matches("  goal: every input refused in < 100 ms \\(worst: \\w+, "
            + "[\\d.]+ ms\\): (MET|NOT MET)")), text);
        assertTrue(text.lines().anyMatch(l -> l.equals("  goal: node still serving: yes")), text);

        assertEquals(before, BenchDirectories.ofThisProcess(),
            "the bench left Aeron or run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }

    private static List<Matcher> matches(String text, Pattern p) {
        return text.lines().map(p::matcher).filter(Matcher::matches).toList();
    }
}
