package dev.cumulus.bench.arrays;

import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.array.SharedDoubleArray;

import java.util.ArrayList;
import java.util.List;

/**
 * The miss measurement of {@code cumulus bench arrays}, run by each of 2 nodes (threads of a {@code LocalCluster},
 * or processes started like {@code cumulus run} does, {@link MissNode}): node 1 exports an echo object and owns every
 * partition of its half of a one-column array (exclusive); node 0 measures the RPC round trip to the echo, then reads
 * (or writes) one element of each of those partitions, once per round (the paper's §4.2 set-up). Both sides are
 * measured warm: the JIT compiles a path after ~10k runs, before which an RPC takes ~90 µs here instead of ~2 µs.
 */
final class MissWorkload {
    /** Node 0's samples in µs; empty lists on node 1. */
    record Samples(List<Double> rpc, List<Double> blockRpc, List<Double> reads, List<Double> writes) {
    }

    /** A remote object for the RPC round-trip baseline. */
    public interface Echo {
        long echo(long v);

        /** A partition's worth of doubles: the same payload a miss's grant carries. */
        double[] block(int index);
    }

    public static final class EchoImpl implements Echo {
        private final double[] data = new double[BLOCK * BLOCK];

        @Override
        public long echo(long v) {
            return v;
        }

        @Override
        public double[] block(int index) {
            data[0] = index;
            return data;
        }
    }

    static final int BLOCK = 16;
    private static volatile double sink;

    private MissWorkload() {
    }

    static Samples run(Cluster cluster, boolean quick) {
        int partitions = quick ? 64 : 256;
        int warmRounds = quick ? 2 : 40;
        int rounds = warmRounds + (quick ? 3 : 20);
        List<Double> rpc = new ArrayList<>();
        List<Double> blockRpc = new ArrayList<>();
        List<Double> reads = new ArrayList<>();
        List<Double> writes = new ArrayList<>();
        int me = cluster.nodeId();
        // one partition column, all partitions homed on node 1 (BLOCK puts the second half there)
        SharedDoubleArray a = cluster.sharedDoubleArray("bench-miss", 2 * partitions * BLOCK, BLOCK, BLOCK, BLOCK);
        Barrier b = cluster.barrier("bench-miss");
        if (me == 1) {
            cluster.export(new EchoImpl(), Echo.class, "bench-echo");
        }
        b.await();
        if (me == 0) {
            Echo echo = cluster.lookup("bench-echo", Echo.class);
            for (int k = 0; k < (quick ? 2000 : 30000); k++) {
                echo.echo(k);
            }
            for (int k = 0; k < (quick ? 2000 : 10000); k++) {
                long t = System.nanoTime();
                echo.echo(k);
                rpc.add((System.nanoTime() - t) / 1e3);
            }
            for (int k = 0; k < (quick ? 2000 : 20000); k++) {
                long t = System.nanoTime();
                sink = echo.block(k)[0];
                if (k >= (quick ? 1000 : 10000)) {
                    blockRpc.add((System.nanoTime() - t) / 1e3);
                }
            }
        }
        for (int round = 0; round < rounds; round++) {
            for (int kind = 0; kind < 2; kind++) {
                if (me == 1) {
                    for (int p = partitions; p < 2 * partitions; p++) {
                        a.acquirePartition(p);
                    }
                }
                b.await();
                if (me == 0) {
                    for (int p = partitions; p < 2 * partitions; p++) {
                        long t = System.nanoTime();
                        if (kind == 0) {
                            sink = a.get(p * BLOCK, 0);
                        } else {
                            a.set(p * BLOCK, 0, round);
                        }
                        double us = (System.nanoTime() - t) / 1e3;
                        if (round >= warmRounds) {
                            (kind == 0 ? reads : writes).add(us);
                        }
                    }
                }
                b.await();
            }
        }
        return new Samples(rpc, blockRpc, reads, writes);
    }
}
