package dev.cumulus.bench.arrays;

import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.Barrier;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.Distribution;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.bench.HostWakeup;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.bench.RpcBench;
import dev.cumulus.internal.array.ArrayRuntime;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.IdleStrategies;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The {@code arrays} suite of {@code cumulus bench}: shared-array hit cost against a plain Java array read; read and
 * write miss latency per partition size against a Cumulus RPC that returns the same partition (Figure 9) and against
 * an 8-byte echo, on 2 node processes started like {@code cumulus run} does and on a {@link LocalCluster}; write cost
 * as sharers grow, tree against centralized barriers, and matrix multiply / LU time per partition size, on
 * {@link LocalCluster}s (nodes as threads of this JVM, one Aeron driver, IPC). p50/p99 are over repeated samples.
 */
public final class ArraysBench {
    private final boolean quick;
    private final PrintStream out;

    private ArraysBench(boolean quick, PrintStream out) {
        this.quick = quick;
        this.out = out;
    }

    public static void main(String[] args) {
        boolean quick = Arrays.asList(args).contains("--quick");
        if (Arrays.asList(args).contains("--hits-only")) {
            new ArraysBench(quick, System.out).hits();
            return;
        }
        if (Arrays.asList(args).contains("--misses-only")) {
            int[] sizes = Arrays.stream(args).filter(a -> a.matches("\\d+")).mapToInt(Integer::parseInt).toArray();
            ArraysBench bench = new ArraysBench(quick, System.out);
            if (sizes.length == 0) {
                bench.misses();
            } else {
                bench.missesAt(sizes);
            }
            return;
        }
        System.exit(run(quick, System.out, System.err));
    }

    /** Runs the suite; returns 0, or 1 when a measurement failed. */
    public static int run(boolean quick, PrintStream out, PrintStream err) {
        try {
            new ArraysBench(quick, out).all();
            return 0;
        } catch (RuntimeException e) {
            err.println("cumulus bench arrays: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    record Stats(double p50, double p99) {
        static Stats of(List<Double> samples) {
            double[] s = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new Stats(s[(int) ((s.length - 1) * 0.5)], s[(int) Math.ceil((s.length - 1) * 0.99)]);
        }
    }

    private void row(String label, Stats s, String unit, Stats base) {
        out.printf(Locale.ROOT, "  %-44s p50 %9.3f %s  p99 %9.3f %s%s%n", label, s.p50(), unit, s.p99(), unit,
            base == null ? "" : "   ratio p50 " + RpcBench.ratio(s.p50() / base.p50()) + "x  p99 "
                + RpcBench.ratio(s.p99() / base.p99()) + "x");
    }

    private void all() {
        out.println("cumulus bench arrays — shared arrays; misses on 2 node processes and on LocalCluster, the rest"
            + " on LocalCluster (nodes are threads of one JVM); Aeron IPC, "
            + Runtime.getRuntime().availableProcessors() + " cores" + (quick ? ", --quick" : ""));
        out.println(HostWakeup.describeThisHost());
        Stats[] hit = hits();
        MissFigures miss = misses();
        sharers();
        barriers();
        kernels();
        out.println();
        String note = quick ? " (--quick: a short, cold run, not a measurement)" : "";
        out.printf(Locale.ROOT, "goal: hit within 3x a plain array read: %sx -> %s%s%n", RpcBench.ratio(hit[1].p50() / hit[0].p50()),
            hit[1].p50() <= 3 * hit[0].p50() ? "met" : "NOT met", note);
        double worst = 0;
        String worstAt = "";
        for (Map.Entry<Integer, Stats[]> e : miss.blocks().entrySet()) {
            Stats[] s = e.getValue();
            double r = Math.max(s[1].p50(), s[2].p50()) / s[0].p50();
            if (r > worst) {
                worst = r;
                worstAt = e.getKey() + "x" + e.getKey();
            }
        }
        out.printf(Locale.ROOT, "goal: miss within 2.5x our RPC round trip returning the same partition (Figure 9's"
            + " baseline), every partition size, 2 node processes: worst %sx (%s) -> %s%s%n", RpcBench.ratio(worst), worstAt,
            worst <= 2.5 ? "met" : "NOT met", note);
        int d = MissWorkload.DEFAULT_BLOCK;
        Stats[] at = miss.of(d);
        out.printf(Locale.ROOT, "context: a %dx%d miss against an 8-byte echo RPC: read %sx, write %sx%n", d, d,
            RpcBench.ratio(at[1].p50() / miss.echo().p50()), RpcBench.ratio(at[2].p50() / miss.echo().p50()));
    }

    // ---------------------------------------------------------------- hits

    private static volatile double sink;

    private Stats[] hits() {
        out.println();
        out.println("hit cost: random reads of a 256x256 double array (32x32 partitions, all valid here), ns per read");
        int n = 256;
        int reads = quick ? 200_000 : 2_000_000;
        int rounds = quick ? 15 : 41;
        List<Double> plain = new ArrayList<>();
        List<Double> shared = new ArrayList<>();
        LocalCluster.run(1, cluster -> {
            SharedDoubleArray a = cluster.sharedDoubleArray("bench-hit", ArrayShape.of(n, n).blocks(32, 32));
            double[] p = new double[n * n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    a.set(i, j, i + j);
                    p[i * n + j] = i + j;
                }
            }
            int[] is = new int[reads];
            int[] js = new int[reads];
            SplittableRandom r = new SplittableRandom(1);
            for (int k = 0; k < reads; k++) {
                is[k] = r.nextInt(n);
                js[k] = r.nextInt(n);
            }
            for (int round = 0; round < rounds; round++) {
                long t0 = System.nanoTime();
                double s = 0;
                for (int k = 0; k < reads; k++) {
                    s += p[is[k] * n + js[k]];
                }
                long t1 = System.nanoTime();
                for (int k = 0; k < reads; k++) {
                    s += a.get(is[k], js[k]);
                }
                long t2 = System.nanoTime();
                sink = s;
                if (round >= rounds / 3) { // warm-up first
                    plain.add((t1 - t0) / (double) reads);
                    shared.add((t2 - t1) / (double) reads);
                }
            }
        });
        Stats base = Stats.of(plain);
        Stats ours = Stats.of(shared);
        row("plain double[] read", base, "ns", null);
        row("SharedDoubleArray.get hit", ours, "ns", base);
        return new Stats[] {base, ours};
    }

    // ---------------------------------------------------------------- misses

    /** The miss figures of the 2 node processes: the 8-byte echo, and per partition size its three rows. */
    record MissFigures(Stats echo, Map<Integer, Stats[]> blocks) {
        /** {block rpc, read miss, write miss} for one partition size. */
        Stats[] of(int block) {
            return blocks.get(block);
        }
    }

    /**
     * Misses on 2 node processes started like {@code cumulus run} does (the goal's figures), for each partition size
     * of Figure 9, then the same at one size in one {@code LocalCluster} JVM (for comparison: there the two busy
     * threads of a miss often land on one core).
     */
    private MissFigures misses() {
        out.println();
        out.println("miss latency, 2 nodes: node 1 owns every partition (exclusive), node 0 touches one element of "
            + "each (the paper's §4.2 set-up); partitions homed on node 1; us per access. Figure 9's baseline is a "
            + "remote call that returns the same partition, timed in the same rounds (per round: the read misses, "
            + "the write misses, the calls, one per partition each, between the same barriers; 40 warm-up rounds, "
            + "more until the JITs compiled nothing for 0.5 s, then 20 measured); ratios are against it");
        out.println("  2 node processes (as 'cumulus run' starts them, Aeron IPC):");
        int[] blocks = quick ? new int[] {MissWorkload.DEFAULT_BLOCK, 64} : MissWorkload.FIGURE_9_BLOCKS;
        MissFigures procs = missesInProcesses(blocks, false);
        missRows(blocks, procs);
        int block = MissWorkload.DEFAULT_BLOCK;
        String size = block + "x" + block;
        out.println("  LocalCluster (2 nodes as threads of this JVM), " + size + ":");
        List<MissWorkload.Samples> local = Collections.synchronizedList(new ArrayList<>());
        LocalCluster.run(2, cluster -> {
            MissWorkload.Samples s = MissWorkload.run(cluster, quick, 1, block);
            if (cluster.nodeId() == 0) {
                local.add(s);
            }
        });
        MissWorkload.Samples s = local.getFirst();
        MissWorkload.BlockSamples bs = s.blocks().get(block);
        Stats base = Stats.of(s.rpc());
        Stats blockRpc = Stats.of(bs.blockRpc());
        row("  cumulus rpc round trip (8-byte echo)", base, "us", null);
        row("  " + size + ": rpc returning the partition", blockRpc, "us", base);
        row("  " + size + ": read miss, owner is the home", Stats.of(bs.reads()), "us", blockRpc);
        row("  " + size + ": write miss, owner is the home", Stats.of(bs.writes()), "us", blockRpc);
        return procs;
    }

    /**
     * {@code --misses-only SIZE...}: only the 2-process misses at the given partition sizes, with 5 times the
     * measured rounds of the full run (for profiling one size, or tighter p99s).
     */
    private void missesAt(int[] blocks) {
        out.println();
        out.println("miss latency, 2 node processes, partition sizes " + Arrays.toString(blocks)
            + ", 5x the measured samples of the full run; ratios are against the rpc returning the partition");
        missRows(blocks, missesInProcesses(blocks, true));
    }

    private void missRows(int[] blocks, MissFigures procs) {
        row("  cumulus rpc round trip (8-byte echo)", procs.echo(), "us", null);
        for (int block : blocks) {
            String size = block + "x" + block;
            Stats[] s = procs.of(block);
            row("  " + size + ": rpc returning the partition", s[0], "us", procs.echo());
            row("  " + size + ": read miss, owner is the home", s[1], "us", s[0]);
            row("  " + size + ": write miss, owner is the home", s[2], "us", s[0]);
        }
    }

    private MissFigures missesInProcesses(int[] blocks, boolean longer) {
        try (ProcessSet set = new ProcessSet("arrays misses (2 processes)")) {
            String aeronDir = set.startDriver("arrays");
            Path runDir = set.tempDirectory("arrays-run");
            String runId = "bench-" + Long.toHexString(System.nanoTime());
            List<String> args = new ArrayList<>();
            for (int block : blocks) {
                args.add(Integer.toString(block));
            }
            if (quick) {
                args.add("quick");
            }
            if (longer) {
                args.add("long");
            }
            List<ProcessSet.Child> nodes = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                LaunchConfig c = new LaunchConfig(runId, i, 2, runDir, aeronDir, LaunchConfig.TransportMode.IPC,
                    List.of(), 1000, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                    NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, IdleStrategies.DEFAULT, false);
                nodes.add(set.start("p" + i, c.toJvmArguments(), MissNode.class, args));
            }
            Map<String, Map<String, String>> r = ProcessSet.results(nodes.getFirst(), nodes, Duration.ofSeconds(240));
            for (ProcessSet.Child c : nodes) {
                c.awaitSuccess(Duration.ofSeconds(60));
            }
            Map<Integer, Stats[]> perBlock = new LinkedHashMap<>();
            for (int block : blocks) {
                perBlock.put(block, new Stats[] {stats(r, "blockrpc-" + block), stats(r, "read-" + block),
                    stats(r, "write-" + block)});
            }
            return new MissFigures(stats(r, "rpc"), perBlock);
        }
    }

    private static Stats stats(Map<String, Map<String, String>> results, String name) {
        Map<String, String> m = results.get(name);
        if (m == null) {
            throw new CumulusException("the miss measurement's node 0 printed no '" + name + "' result");
        }
        return new Stats(Double.parseDouble(m.get("p50")), Double.parseDouble(m.get("p99")));
    }

    // ---------------------------------------------------------------- write cost vs sharers

    private void sharers() {
        out.println();
        out.println("write cost as sharers grow, 4 nodes: k nodes hold shared copies, node 0 writes one element of "
            + "each partition (homed on node 3); us per write");
        int rounds = quick ? 4 : 12;
        int partitions = quick ? 16 : 64;
        for (int block : new int[] {8, 32}) {
            for (int k = 1; k <= 3; k++) {
                int sharersCount = k;
                List<Double> samples = Collections.synchronizedList(new ArrayList<>());
                LocalCluster.run(4, cluster -> {
                    int me = cluster.nodeId();
                    SharedDoubleArray a = cluster.sharedDoubleArray("bench-sharers",
                        ArrayShape.of(4 * partitions * block, block).blocks(block, block));
                    Barrier b = cluster.barrier("bench-sharers");
                    for (int round = 0; round < rounds; round++) {
                        if (me >= 1 && me <= sharersCount) {
                            for (int p = 3 * partitions; p < 4 * partitions; p++) {
                                a.requestPartitionCopy(p);
                            }
                        }
                        b.await();
                        if (me == 0) {
                            for (int p = 3 * partitions; p < 4 * partitions; p++) {
                                long t = System.nanoTime();
                                a.set(p * block, 0, round);
                                if (round > 0) {
                                    samples.add((System.nanoTime() - t) / 1e3);
                                }
                            }
                        }
                        b.await();
                    }
                });
                row(block + "x" + block + " partition, " + k + " sharer(s)", Stats.of(samples), "us", null);
            }
        }
    }

    // ---------------------------------------------------------------- barriers

    private void barriers() {
        out.println();
        out.println("barrier cost, tree (one proxy per node) vs centralized (every thread calls the root); "
            + "us per barrier as thread 0 of node 0 sees it");
        int rounds = quick ? 100 : 400;
        for (int nodes = 2; nodes <= 4; nodes++) {
            for (int threads : new int[] {1, 2, 4}) {
                Stats tree = barrier(nodes, threads, rounds, true);
                Stats central = barrier(nodes, threads, rounds, false);
                row(nodes + " nodes x " + threads + " threads: tree", tree, "us", null);
                row(nodes + " nodes x " + threads + " threads: centralized", central, "us", tree);
            }
        }
    }

    private Stats barrier(int nodes, int threads, int rounds, boolean tree) {
        List<Double> samples = Collections.synchronizedList(new ArrayList<>());
        LocalCluster.run(nodes, cluster -> {
            ArrayRuntime rt = ((NodeCluster) cluster).capability(ArrayRuntime.class);
            Barrier b = tree ? rt.barrier("bench-barrier", threads) : rt.centralizedBarrier("bench-barrier", threads);
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean measure = cluster.nodeId() == 0 && t == 0;
                ts.add(Thread.ofPlatform().start(() -> {
                    for (int r = 0; r < rounds; r++) {
                        long t0 = System.nanoTime();
                        b.await();
                        if (measure && r >= rounds / 5) {
                            samples.add((System.nanoTime() - t0) / 1e3);
                        }
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
        });
        return Stats.of(samples);
    }

    // ---------------------------------------------------------------- kernels

    private void kernels() {
        out.println();
        int n = quick ? 64 : 128;
        out.println("kernels on 2 nodes, " + n + "x" + n + " doubles, time per run in ms (3 runs)");
        for (int block : new int[] {8, 16, 32}) {
            List<Double> mm = new ArrayList<>();
            List<Double> lu = new ArrayList<>();
            for (int run = 0; run < 3; run++) {
                double[] ms = new double[2];
                int tag = run;
                LocalCluster.run(2, cluster -> {
                    double[] t = kernelRun(cluster, n, block, tag);
                    if (cluster.nodeId() == 0) {
                        ms[0] = t[0];
                        ms[1] = t[1];
                    }
                });
                mm.add(ms[0]);
                lu.add(ms[1]);
            }
            row("matrix multiply, " + block + "x" + block + " partitions", Stats.of(mm), "ms", null);
            row("LU block-cyclic, " + block + "x" + block + " partitions", Stats.of(lu), "ms", null);
        }
    }

    private static double[] kernelRun(Cluster cluster, int n, int block, int tag) {
        int me = cluster.nodeId();
        ArrayShape blocks = ArrayShape.of(n, n).blocks(block, block);
        SharedDoubleArray a = cluster.sharedDoubleArray("k-a", blocks);
        SharedDoubleArray b = cluster.sharedDoubleArray("k-b", blocks);
        SharedDoubleArray c = cluster.sharedDoubleArray("k-c", blocks);
        SharedDoubleArray l = cluster.sharedDoubleArray("k-lu", blocks.distribution(Distribution.BLOCK_CYCLIC));
        Barrier bar = cluster.barrier("k-bar");
        for (int p = 0; p < a.partitions(); p++) {
            if (a.homeOf(p) == me) {
                for (int i = a.firstRowOf(p); i < a.firstRowOf(p) + block; i++) {
                    for (int j = a.firstColOf(p); j < a.firstColOf(p) + block; j++) {
                        a.set(i, j, (i + j) % 7);
                        b.set(i, j, (i * j) % 5);
                    }
                }
            }
            if (l.homeOf(p) == me) {
                for (int i = l.firstRowOf(p); i < l.firstRowOf(p) + block; i++) {
                    for (int j = l.firstColOf(p); j < l.firstColOf(p) + block; j++) {
                        l.set(i, j, i == j ? n + 1.0 : ((i * 13 + j * 7) % 11) / 11.0);
                    }
                }
            }
        }
        bar.await();
        long t0 = System.nanoTime();
        for (int p = 0; p < c.partitions(); p++) {
            if (c.homeOf(p) != me) {
                continue;
            }
            int r0 = c.firstRowOf(p);
            int c0 = c.firstColOf(p);
            double[] rows = a.readBlock(r0, 0, block, n);
            double[] cols = b.readBlock(0, c0, n, block);
            double[] out = new double[block * block];
            for (int i = 0; i < block; i++) {
                for (int k = 0; k < n; k++) {
                    double aik = rows[i * n + k];
                    for (int j = 0; j < block; j++) {
                        out[i * block + j] += aik * cols[k * block + j];
                    }
                }
            }
            c.writeBlock(r0, c0, block, block, out);
        }
        bar.await();
        long t1 = System.nanoTime();
        for (int k = 0; k < n - 1; k++) {
            double pivot = l.get(k, k);
            for (int i = k + 1; i < n; i++) {
                if (l.homeOf(l.partitionOf(i, k)) == me) {
                    l.set(i, k, l.get(i, k) / pivot);
                }
            }
            bar.await();
            for (int i = k + 1; i < n; i++) {
                for (int j = k + 1; j < n; j++) {
                    if (l.homeOf(l.partitionOf(i, j)) == me) {
                        l.set(i, j, l.get(i, j) - l.get(i, k) * l.get(k, j));
                    }
                }
            }
            bar.await();
        }
        long t2 = System.nanoTime();
        return new double[] {(t1 - t0) / 1e6, (t2 - t1) / 1e6};
    }
}
