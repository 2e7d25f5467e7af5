package dev.cumulus.bench.arrays;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.SharedLong;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.bench.JitQuiet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The miss measurement of {@code cumulus bench arrays}, run by each of 2 nodes (threads of a {@code LocalCluster},
 * or processes started like {@code cumulus run} does, {@link MissNode}): node 1 exports an echo object and owns every
 * partition of its half of a one-column array (exclusive); node 0 measures the RPC round trip to the echo, then, per
 * partition size, an RPC that returns a partition's worth of doubles (Figure 9's baseline: a plain remote call that
 * fetches the same data) and reads (or writes) one element of each of those partitions, once per round (the paper's
 * §4.2 set-up). Both sides are measured warm (before the JIT has compiled its path, an RPC takes many times longer)
 * and in the same rounds: each round times the read misses, the write misses and the RPCs, one per partition each,
 * between the same barriers.
 */
final class MissWorkload {
    /** The partition sizes (square blocks of doubles) of Figure 9 that the full run measures. */
    static final int[] FIGURE_9_BLOCKS = {8, 16, 32, 64, 128};
    /** The partition size the LocalCluster comparison and the quick run use. */
    static final int DEFAULT_BLOCK = 16;

    /** Node 0's samples in µs for one partition size; empty lists on node 1. */
    record BlockSamples(List<Double> blockRpc, List<Double> reads, List<Double> writes) {
    }

    /** Node 0's samples: the 8-byte echo and, per partition size (in the order measured), the rest. */
    record Samples(List<Double> rpc, Map<Integer, BlockSamples> blocks) {
    }

    /** A remote object for the RPC baselines. */
    public interface Echo {
        long echo(long v);

        /** A {@code size}x{@code size} partition's worth of doubles: the same payload a miss's grant carries. */
        double[] block(int index, int size);
    }

    public static final class EchoImpl implements Echo {
        private final Map<Integer, double[]> data = new ConcurrentHashMap<>();

        @Override
        public long echo(long v) {
            return v;
        }

        @Override
        public double[] block(int index, int size) {
            double[] d = data.computeIfAbsent(size, s -> new double[s * s]);
            d[0] = index;
            return d;
        }
    }

    private static volatile double sink;

    private MissWorkload() {
    }

    /** How many partitions of {@code block}x{@code block} node 0 misses on per round: fewer as they grow. */
    static int partitionsFor(int block, boolean quick) {
        int n = Math.max(16, Math.min(256, 65_536 / (block * block)));
        return quick ? Math.max(8, n / 4) : n;
    }

    /** Runs the measurement at each of {@code blocks}; {@code measure} multiplies the measured rounds. */
    static Samples run(Cluster cluster, boolean quick, int measure, int... blocks) {
        int me = cluster.nodeId();
        Barrier b = cluster.barrier("bench-miss");
        if (me == 1) {
            cluster.export(new EchoImpl(), Echo.class, "bench-echo");
        }
        b.await();
        List<Double> rpc = new ArrayList<>();
        Echo echo = me == 0 ? cluster.lookup("bench-echo", Echo.class) : null;
        if (me == 0) {
            for (int k = 0; k < (quick ? 2000 : 30000); k++) {
                echo.echo(k);
            }
            for (int k = 0; k < (quick ? 2000 : 10000); k++) {
                long t = System.nanoTime();
                echo.echo(k);
                rpc.add((System.nanoTime() - t) / 1e3);
            }
        }
        Map<Integer, BlockSamples> out = new LinkedHashMap<>();
        for (int block : blocks) {
            out.put(block, runBlock(cluster, echo, b, quick, measure, block));
        }
        return new Samples(rpc, out);
    }

    private static BlockSamples runBlock(Cluster cluster, Echo echo, Barrier b, boolean quick, int measure,
                                         int block) {
        int partitions = partitionsFor(block, quick);
        int warmRounds = quick ? 2 : 40;
        int measuredRounds = measure * (quick ? 3 : 20);
        List<Double> blockRpc = new ArrayList<>();
        List<Double> reads = new ArrayList<>();
        List<Double> writes = new ArrayList<>();
        int me = cluster.nodeId();
        // one partition column, all partitions of the second half homed on node 1
        SharedDoubleArray a = cluster.sharedDoubleArray("bench-miss-" + block,
            ArrayShape.of(2 * partitions * block, block).blocks(block, block));
        if (me == 0) {
            // the RPC's path warm before the rounds (fewer calls as the payload grows: a 128x128 block is 128 KiB)
            int warmCalls = quick ? 1000 : Math.max(1000, 10000 * 256 / (block * block));
            for (int k = 0; k < warmCalls; k++) {
                sink = echo.block(k, block)[0];
            }
        }
        // Per round: read misses, write misses, then the RPC returning a partition, once per partition each, every
        // kind between the same barriers, so the baseline meets the threads of both nodes as the misses do. After the
        // warm-up rounds, more until the JITs of the measurement's JVMs are quiet: node 0 decides, and says so
        // through a shared scalar before the round's last barrier, after which node 1 reads it.
        SharedLong warmedUp = cluster.sharedLong("bench-miss-warm-" + block);
        JitQuiet jit = me == 0 ? JitQuiet.ofMeasurement() : null;
        long jitEnd = 0;
        boolean warming = true;
        int measured = 0;
        for (int round = 0; measured < measuredRounds; round++) {
            if (!warming) {
                measured++;
            }
            for (int kind = 0; kind < 3; kind++) {
                if (me == 1 && kind < 2) {
                    for (int p = partitions; p < 2 * partitions; p++) {
                        a.acquirePartition(p);
                    }
                }
                b.await();
                if (me == 0) {
                    List<Double> into = kind == 0 ? reads : kind == 1 ? writes : blockRpc;
                    for (int p = partitions; p < 2 * partitions; p++) {
                        long t = System.nanoTime();
                        if (kind == 0) {
                            sink = a.get(p * block, 0);
                        } else if (kind == 1) {
                            a.set(p * block, 0, round);
                        } else {
                            sink = echo.block(p, block)[0];
                        }
                        double us = (System.nanoTime() - t) / 1e3;
                        if (!warming) {
                            into.add(us);
                        }
                    }
                }
                if (kind == 2 && warming && me == 0 && round + 1 >= warmRounds) {
                    jitEnd = jitEnd != 0 ? jitEnd : System.nanoTime() + (quick ? 0 : JitQuiet.MAX_WAIT_NS);
                    if (jit.quiet() || System.nanoTime() - jitEnd >= 0) {
                        warmedUp.set(1);
                    }
                }
                b.await();
            }
            if (warming && round + 1 >= warmRounds) {
                warming = warmedUp.get() == 0;
            }
        }
        return new BlockSamples(blockRpc, reads, writes);
    }
}
