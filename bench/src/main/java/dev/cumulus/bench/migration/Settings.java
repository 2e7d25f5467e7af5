package dev.cumulus.bench.migration;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How long each part of the migration suite runs; the orchestrator passes it to the nodes as
 * {@code -Dbench.mig.*} properties.
 *
 * @param sizes       state sizes of part (a), bytes
 * @param reps        measured moves (and calls) per size
 * @param warmups     unmeasured moves (and calls) per size before those
 * @param chainReps   stale proxies measured per chain length in part (b)
 * @param chainWarmup stale proxies called unmeasured before those
 * @param laterCalls  calls after the first, per stale proxy (and as many direct calls)
 * @param loadMs      how long the callers call in each run of part (c)
 * @param moveEveryMs the mover's period in part (c)
 */
record Settings(int[] sizes, int[] reps, int[] warmups, int chainReps, int chainWarmup, int laterCalls, long loadMs,
                long moveEveryMs) {
    static final int KIB = 1024;
    static final int MIB = 1024 * KIB;
    static final int[] SIZES = {KIB, 64 * KIB, MIB, 16 * MIB, 64 * MIB};
    /** The forwarding chains of part (b). */
    static final int[] CHAINS = {1, 3};

    static Settings standard() {
        return new Settings(SIZES, new int[] {200, 100, 30, 8, 4}, new int[] {20, 10, 3, 1, 1}, 200, 20, 10, 3000, 10);
    }

    /** A smoke run: every row, few samples. */
    static Settings quick() {
        return new Settings(SIZES, new int[] {3, 3, 2, 1, 1}, new int[] {1, 1, 1, 0, 0}, 10, 2, 5, 500, 10);
    }

    List<String> toJvmArguments() {
        List<String> a = new ArrayList<>();
        a.add("-Dbench.mig.sizes=" + join(sizes));
        a.add("-Dbench.mig.reps=" + join(reps));
        a.add("-Dbench.mig.warmups=" + join(warmups));
        a.add("-Dbench.mig.chain=" + chainReps + "," + chainWarmup + "," + laterCalls);
        a.add("-Dbench.mig.load=" + loadMs + "," + moveEveryMs);
        return a;
    }

    static Settings current() {
        int[] chain = ints(System.getProperty("bench.mig.chain"));
        int[] load = ints(System.getProperty("bench.mig.load"));
        return new Settings(ints(System.getProperty("bench.mig.sizes")), ints(System.getProperty("bench.mig.reps")),
            ints(System.getProperty("bench.mig.warmups")), chain[0], chain[1], chain[2], load[0], load[1]);
    }

    static String join(int[] values) {
        return String.join(",", Arrays.stream(values).mapToObj(String::valueOf).toList());
    }

    private static int[] ints(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalStateException("a bench.mig.* property is missing: this process is started by "
                + "MigrationBench, not by hand");
        }
        return Arrays.stream(list.split(",")).mapToInt(Integer::parseInt).toArray();
    }
}
