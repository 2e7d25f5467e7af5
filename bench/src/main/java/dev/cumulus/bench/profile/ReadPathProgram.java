package dev.cumulus.bench.profile;

import dev.cumulus.Cluster;
import dev.cumulus.bench.replication.Register;

import java.util.Arrays;
import java.util.Locale;

/**
 * The read path of {@code bench replication} as a program {@code cumulus run} starts, so it can run with and without
 * {@code --profile} / {@code --live}: every node reads its replica of a replicated {@link Register} in batches of
 * {@value #BATCH} calls, for a warm-up and then a measured time, and prints the per-call time of its batches:
 * {@code READS p50_ps=N p99_ps=N batches=N} (picoseconds per call). Every node measures at once, as the nodes of a
 * program do; the bench reads node 0's line.
 *
 * <pre>cumulus run --nodes 2 -cp bench/target/cumulus-bench.jar dev.cumulus.bench.profile.ReadPathProgram [SECONDS]</pre>
 */
public final class ReadPathProgram {
    /** Reads per batch (as in {@code bench replication}). */
    static final int BATCH = 1_000;
    /** What each line this program prints for the bench starts with. */
    static final String PREFIX = "READS ";
    static final double DEFAULT_SECONDS = 3;

    private static volatile long sink;

    private ReadPathProgram() {
    }

    /** {@code [SECONDS]}: the measured time (default 3 s; a warm-up of a third of it comes first). */
    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : DEFAULT_SECONDS;
        if (!(seconds > 0) || seconds > 600) {
            throw new IllegalArgumentException("SECONDS must be above 0 and at most 600, not " + args[0]);
        }
        try (Cluster cluster = Cluster.join()) {
            Register register = cluster.replicated("profile-reads", Register::new);
            if (cluster.nodeId() == 0) {
                register.set(42);
            }
            cluster.barrier();
            long measuredNs = (long) (seconds * 1e9);
            batches(register, measuredNs / 3, null);
            long[] perCallPs = new long[(int) Math.min(Integer.MAX_VALUE - 8, measuredNs / 1_000 + 1)];
            int n = batches(register, measuredNs, perCallPs);
            cluster.barrier();
            long[] done = Arrays.copyOf(perCallPs, n);
            Arrays.sort(done);
            System.out.printf(Locale.ROOT, "%sp50_ps=%d p99_ps=%d batches=%d%n", PREFIX, percentile(done, 0.50),
                percentile(done, 0.99), n);
        }
    }

    /** Batches of reads for {@code durationNs}; each batch's per-call time into {@code into} when given. */
    private static int batches(Register register, long durationNs, long[] into) {
        long acc = 0;
        int n = 0;
        long start = System.nanoTime();
        long now = start;
        while (now - start < durationNs && (into == null || n < into.length)) {
            for (int j = 0; j < BATCH; j++) {
                acc += register.get();
            }
            long end = System.nanoTime();
            if (into != null) {
                into[n++] = (end - now) * 1_000 / BATCH;
            }
            now = end;
        }
        sink = acc;
        return n;
    }

    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
