package dev.cumulus.bench.attach;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System test: {@code bench rpc --attach --quick} starts a standing cluster, measures, prints the ratio and the
 * attach times with positive numbers, and leaves no process behind.
 */
class AttachBenchSmokeTest {
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void quickRunPrintsTheRatioAndTheAttachTimes() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = AttachBench.run(true, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        Matcher ratio = Pattern.compile("client -> server ([\\d.]+) us, SPMD node 0 -> node 1 ([\\d.]+) us: ([\\d.]+)x")
            .matcher(text);
        assertTrue(ratio.find(), text);
        double client = Double.parseDouble(ratio.group(1));
        double node = Double.parseDouble(ratio.group(2));
        double printed = Double.parseDouble(ratio.group(3));
        assertTrue(client > 0 && node > 0 && printed > 0, text);
        // the ratio is the client's p50 over the node's, printed to 3 significant digits (the times to 0.01 us)
        assertEquals(client / node, printed, client / node * 0.01 + 0.01 / node * 2, text);
        for (String run : List.of("cold", "warm 1")) {
            Matcher m = Pattern.compile("^  " + run + "\\s+(\\d+) =", Pattern.MULTILINE).matcher(text);
            assertTrue(m.find() && Long.parseLong(m.group(1)) > 0, run + ":\n" + text);
        }
        List<ProcessHandle> left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "processes left behind: " + left);
    }

    @Test
    void probeLinesAreReadWithOrWithoutANodePrefix() {
        assertEquals(java.util.Map.of("a", 1L, "b", 22L), AttachBench.probe("[0] PROBE a 1\nnoise\nPROBE b 22\n"));
    }
}
