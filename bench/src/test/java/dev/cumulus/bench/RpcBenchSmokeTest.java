package dev.cumulus.bench;

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
import static org.junit.jupiter.api.Assertions.fail;

/** System test: the rpc suite with --quick on 2 node processes prints every row with positive numbers. */
class RpcBenchSmokeTest {
    /** label, p50, p99, p50 ratio, p99 ratio, async calls/s, ratio, CPU text. */
    private static final Pattern ROW = Pattern.compile(
        "^  (cumulus rpc|raw aeron ipc|udp blocking|java\\.rmi)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)"
            + "\\s+([\\d,]+)\\s+([\\d.]+)\\s+(.*)$");
    private static final Pattern CPU = Pattern.compile("(p\\d|drv) (\\d+)%");

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void quickRunPrintsEveryRowWithPositiveNumbers() throws IOException {
        Set<String> before = BenchDirectories.ofThisProcess();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RpcBench.run(new RpcBench.Options(List.of(2), true, false, "backoff", false),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        assertTrue(text.contains("\n2 processes\n"), text);

        Matcher sameNode = Pattern.compile("^  " + Pattern.quote(RpcBench.SAME_NODE) + "\\s+([\\d.]+)\\s+([\\d.]+)\\s.*$")
            .matcher(text.lines().filter(l -> l.startsWith("  " + RpcBench.SAME_NODE)).findFirst().orElse(""));
        assertTrue(sameNode.matches() && Double.parseDouble(sameNode.group(1)) > 0, "no same-node row in:\n" + text);
        for (String label : List.of(RpcBench.OURS, RpcBench.AERON, RpcBench.UDP, RpcBench.RMI)) {
            Matcher m = text.lines().map(ROW::matcher).filter(x -> x.matches() && x.group(1).equals(label))
                .findFirst().orElse(null);
            if (m == null) {
                fail("no row '" + label + "' with numbers in:\n" + text);
            }
            for (int g = 2; g <= 7; g++) {
                double v = Double.parseDouble(m.group(g).replace(",", ""));
                assertTrue(v > 0, label + ": column " + (g - 1) + " is " + m.group(g) + " in:\n" + text);
            }
            assertTrue(Double.parseDouble(m.group(3)) >= Double.parseDouble(m.group(2)),
                label + ": p99 below p50 in:\n" + text);
            Matcher cpu = CPU.matcher(m.group(8));
            int processes = 0;
            while (cpu.find()) {
                // only that each process has its share: a quick run's sync phase can be over in a few ms (5,000
                // round trips of raw Aeron), less than one tick of the clock process CPU time is counted in (10 ms),
                // so a busy process may show 0 %
                if (cpu.group(1).startsWith("p")) {
                    processes++;
                }
            }
            assertEquals(2, processes, label + ": CPU of both processes expected in:\n" + text);
        }
        assertEquals(2, text.lines().filter(l -> l.matches("  goal: .*: (MET|NOT MET)")).count(), text);
        assertEquals(before, BenchDirectories.ofThisProcess(),
            "the bench left Aeron or run directories behind");
        assertEquals(List.of(), ProcessHandle.current().children().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the bench left processes behind");
    }

    /** The UDP section: the sealed, unsealed and encrypted rows of ours, with numbers, and both goals. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void quickUdpRunPrintsTheSealedUnsealedAndEncryptedRows() throws IOException {
        Set<String> before = BenchDirectories.ofThisProcess();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = RpcBench.run(new RpcBench.Options(List.of(2), true, false, "backoff", true),
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        for (String label : List.of("cumulus udp", "udp no MAC*", "udp --encrypt", RpcBench.UDP)) {
            Matcher m = Pattern.compile("^  " + Pattern.quote(label) + "\\s+([\\d.]+)\\s+([\\d.]+)\\s.*$")
                .matcher(text.lines().filter(l -> l.startsWith("  " + label + " ")).findFirst().orElse(""));
            assertTrue(m.matches() && Double.parseDouble(m.group(1)) > 0, "no row '" + label + "' in:\n" + text);
        }
        assertEquals(2, text.lines().filter(l -> l.matches("  goal: p50 (with the MAC|encrypted).*: (MET|NOT MET)"))
            .count(), text);
        assertTrue(text.contains("a mode of this benchmark only"), text);
        assertEquals(before, BenchDirectories.ofThisProcess(),
            "the bench left Aeron or run directories behind");
    }
}
