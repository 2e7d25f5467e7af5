package dev.cumulus.bench.attach;

import dev.cumulus.Cluster;
import dev.cumulus.bench.CumulusRpcNode;
import dev.cumulus.bench.Echo;
import org.HdrHistogram.Histogram;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * The program {@link AttachBench} runs twice: as a client of a standing cluster ({@code run --attach}) and as node 0
 * of a two-node SPMD run. Node 0 (the client) makes an echo object on node (server) 1, times the way to its first call
 * — JVM start to {@code main}, {@code Cluster.join()}, {@code remoteNew}, the first call — then measures synchronous
 * calls of 32 bytes. Prints {@code PROBE name value} lines; every other node waits at the closing barrier.
 *
 * <p>args: warm-up calls, measured calls.
 */
public final class AttachProbe {
    private AttachProbe() {
    }

    public static void main(String[] args) {
        long enteredMs = System.currentTimeMillis();
        long enteredNs = System.nanoTime();
        long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        int warmup = Integer.parseInt(args[0]);
        int measured = Integer.parseInt(args[1]);
        try (Cluster cluster = Cluster.join()) {
            long joinedNs = System.nanoTime();
            if (cluster.nodeId() == 0) {
                Echo echo = cluster.remoteNew(CumulusRpcNode.EchoService.class, Echo.class, "attach-probe",
                    cluster.size() > 1 ? 1 : 0);
                long madeNs = System.nanoTime();
                byte[] payload = new byte[32];
                Arrays.fill(payload, (byte) 7);
                echo.echo(payload);
                long firstNs = System.nanoTime();
                long firstMs = System.currentTimeMillis();
                line("main-entered-epoch-ms", enteredMs);
                line("jvm-to-main-ms", enteredMs - jvmStartMs);
                line("join-us", (joinedNs - enteredNs) / 1_000);
                line("remote-new-us", (madeNs - joinedNs) / 1_000);
                line("first-call-us", (firstNs - madeNs) / 1_000);
                line("first-call-epoch-ms", firstMs);
                for (int i = 0; i < warmup; i++) {
                    echo.echo(payload);
                }
                Histogram h = new Histogram(10_000_000_000L, 3);
                long start = System.nanoTime();
                for (int i = 0; i < measured; i++) {
                    long t0 = System.nanoTime();
                    echo.echo(payload);
                    h.recordValue(Math.min(System.nanoTime() - t0, 10_000_000_000L));
                }
                long elapsed = System.nanoTime() - start;
                line("sync-p50-ns", h.getValueAtPercentile(50));
                line("sync-p99-ns", h.getValueAtPercentile(99));
                line("sync-calls-per-s", (long) (measured * 1e9 / elapsed));
            }
            cluster.barrier();
        }
    }

    private static void line(String name, long value) {
        System.out.println("PROBE " + name + " " + value);
    }
}
