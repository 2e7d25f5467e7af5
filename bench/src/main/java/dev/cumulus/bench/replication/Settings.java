package dev.cumulus.bench.replication;

import dev.cumulus.bench.JitQuiet;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * How much a replication measurement does, handed to every child as {@code -Dbench.repl.*} properties.
 *
 * @param warmup       unmeasured rounds before each measured series (RPCs, completion rounds, writes)
 * @param rounds       measured completion rounds per replica, and measured RPC round trips / local writes
 * @param readBatches  measured batches of {@code readBatch} read calls (each batch gives one per-call sample)
 * @param readBatch    calls per read batch
 * @param gapBatches   measured batches of 100 writes in a row
 * @param invoker      node that invokes the writes; -1: the last node
 * @param phaseMaxNs   time budget of each measured series (it ends at its count or its budget)
 * @param warmupMinNs  least time each warm-up runs, whatever its round count: {@code warmup} rounds alone can be
 *                     over before the JIT has compiled the call and write paths (in the replica's JVM and the
 *                     invoker's), which would then compile during the first replica's measured rounds and make that
 *                     replica the slowest
 */
public record Settings(int warmup, int rounds, int readBatches, int readBatch, int gapBatches, int invoker,
                       long phaseMaxNs, long warmupMinNs) {
    public static final int GAP_WRITES = 100;

    public static Settings standard() {
        return new Settings(500, 2_000, 2_000, 1_000, 50, -1, 3_000_000_000L, 1_500_000_000L);
    }

    public static Settings quick() {
        return new Settings(100, 300, 300, 1_000, 10, -1, 700_000_000L, 100_000_000L);
    }

    /** Wide-area links: few rounds (each is tens of milliseconds). */
    public static Settings wan(boolean quick) {
        return quick ? new Settings(2, 5, 100, 1_000, 2, -1, 5_000_000_000L, 0)
            : new Settings(3, 15, 300, 1_000, 4, -1, 10_000_000_000L, 0);
    }

    public Settings withInvoker(int node) {
        return new Settings(warmup, rounds, readBatches, readBatch, gapBatches, node, phaseMaxNs, warmupMinNs);
    }

    /**
     * Whether a warm-up that began at {@code startNs} and has done {@code done} rounds goes on: until it did
     * {@link #warmup} rounds and ran {@link #warmupMinNs}.
     */
    public boolean warming(int done, long startNs) {
        return done < warmup || System.nanoTime() - startNs < warmupMinNs;
    }

    /**
     * Whether a warm-up goes on, as {@link #warming(int, long)}, and after that until the JIT compilers of every node
     * are quiet ({@code jit}), for at most {@link #jitWaitNs} more.
     */
    public boolean warming(int done, long startNs, JitQuiet jit) {
        return warming(done, startNs)
            || System.nanoTime() - startNs - warmupMinNs < jitWaitNs() && !jit.quiet();
    }

    /** At most how long a warm-up waits past {@link #warmupMinNs} for the compilers to quiet down. */
    long jitWaitNs() {
        return Math.min(JitQuiet.MAX_WAIT_NS, 4 * warmupMinNs);
    }

    public int invokerOf(int n) {
        return invoker < 0 || invoker >= n ? n - 1 : invoker;
    }

    public List<String> toJvmArguments() {
        List<String> a = new ArrayList<>();
        a.add("-Dbench.repl.warmup=" + warmup);
        a.add("-Dbench.repl.rounds=" + rounds);
        a.add("-Dbench.repl.read.batches=" + readBatches);
        a.add("-Dbench.repl.read.batch=" + readBatch);
        a.add("-Dbench.repl.gap.batches=" + gapBatches);
        a.add("-Dbench.repl.invoker=" + invoker);
        a.add("-Dbench.repl.phase.max.ns=" + phaseMaxNs);
        a.add("-Dbench.repl.warmup.min.ns=" + warmupMinNs);
        return a;
    }

    public static Settings current() {
        Properties p = System.getProperties();
        return new Settings(Integer.parseInt(p.getProperty("bench.repl.warmup")),
            Integer.parseInt(p.getProperty("bench.repl.rounds")),
            Integer.parseInt(p.getProperty("bench.repl.read.batches")),
            Integer.parseInt(p.getProperty("bench.repl.read.batch")),
            Integer.parseInt(p.getProperty("bench.repl.gap.batches")),
            Integer.parseInt(p.getProperty("bench.repl.invoker")),
            Long.parseLong(p.getProperty("bench.repl.phase.max.ns")),
            Long.parseLong(p.getProperty("bench.repl.warmup.min.ns")));
    }
}
