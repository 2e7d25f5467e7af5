package dev.cumulus.bench.replication;

import dev.cumulus.Cluster;
import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.JitQuiet;
import dev.cumulus.internal.cloud.CloudRuntime;
import dev.cumulus.internal.cluster.NodeCluster;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One node of the Cumulus replication measurement (Manta §3.5), started by {@link ReplicationBench} with the launch
 * contract of {@code cumulus run}, the agent, {@code -Dcumulus.sequencer} and {@link Settings}.
 *
 * <ol>
 *   <li>every node creates its replica of {@link Register}; the invoker (the last node unless told otherwise)
 *       exports an {@link Invoker};</li>
 *   <li>invoker: reads on its replica, reads and writes on a plain {@link Register} (not replicated, the same woven
 *       class) and on a {@link PlainRegister}, in batches; then single replicated writes, each timed until it
 *       returns (its own completion); then batches of 100 writes in a row (the gap);</li>
 *   <li>every other node in turn: RPC round trips to the invoker ({@code ping}), then completion rounds: the node
 *       arms a {@link Stamp} for value v, reads t_s, calls {@code invoker.write(v)}, and t_e is taken on this node
 *       right after its replica applied the write that holds v; the sample is t_e - t_s - RTT/2, with RTT this node's
 *       p50 ping.</li>
 * </ol>
 * Where t_e is taken: Manta's write method stored the time itself. A cloud method may not read the clock (rule
 * CUM107; the agent refuses such a class), so the bench registers a runtime hook that runs on the applying thread
 * right after every applied write ({@code CloudRuntime.afterEveryWrite}) — the same moment, without a thread of its
 * own: a watcher thread polling the replica would add its own scheduling to every sample when processes outnumber
 * cores.
 *
 * <p>Each series of writes or RPCs starts once its warm-up ran and the JIT compilers of all nodes have been quiet
 * ({@link JitQuiet}): a series measured while C2 still takes one of a small box's cores measures the processes
 * squeezed onto the other, not the write path.
 */
public final class ReplicaNode {
    private static volatile long sink;

    private ReplicaNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        Settings s = Settings.current();
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            int n = cluster.size();
            int inv = s.invokerOf(n);
            Register reg = cluster.replicated("bench-register", Register::new);
            if (me == inv) {
                cluster.export(new InvokerService(reg), Invoker.class, "invoker");
            }
            cluster.barrier();
            Invoker invoker = cluster.lookup("invoker", Invoker.class);
            if (me == inv) {
                ChildIo.line("PHASE local start");
                reads(s, reg, new Register(), new PlainRegister());
                localWrites(s, reg);
                gap(s, reg);
                ChildIo.line("PHASE local end");
            }
            cluster.barrier();
            for (int k = 0; k < n; k++) {
                if (k == me && (k != inv || n == 1)) {
                    long rtt = rpc(s, invoker);
                    if (k != inv) {
                        completion(s, cluster, reg, invoker, me, rtt);
                    }
                }
                cluster.barrier();
            }
            ChildIo.line("DONE");
        }
    }

    private static boolean over(long start, Settings s) {
        return System.nanoTime() - start > s.phaseMaxNs();
    }

    /** Per-call time of batches of reads, in picoseconds. */
    private static void reads(Settings s, Register replica, Register plain, PlainRegister plainClass) {
        plain.set(1);
        plainClass.set(1);
        for (int w = 0; w < 3; w++) { // warm-up rounds, interleaved so each variant is compiled alike
            readBatches(s, replica::get, Math.max(1, s.readBatches() / 4), null);
            readBatches(s, plain::get, Math.max(1, s.readBatches() / 4), null);
            readBatches(s, plainClass::get, Math.max(1, s.readBatches() / 4), null);
            writeBatches(s, plain, Math.max(1, s.readBatches() / 4), null);
            writeBatches(s, plainClass::set, Math.max(1, s.readBatches() / 4), null);
        }
        Stats r = new Stats();
        Stats pr = new Stats();
        Stats pcr = new Stats();
        Stats pw = new Stats();
        Stats pcw = new Stats();
        readBatches(s, replica::get, s.readBatches(), r);
        readBatches(s, plain::get, s.readBatches(), pr);
        readBatches(s, plainClass::get, s.readBatches(), pcr);
        writeBatches(s, plain, s.readBatches(), pw);
        writeBatches(s, plainClass::set, s.readBatches(), pcw);
        r.print("read.replica.ps");
        pr.print("read.plain.ps");
        pcr.print("read.plainclass.ps");
        pw.print("write.plain.ps");
        pcw.print("write.plainclass.ps");
    }

    interface LongRead {
        long get();
    }

    interface LongWrite {
        void set(long v);
    }

    private static void readBatches(Settings s, LongRead read, int batches, Stats into) {
        int b = s.readBatch();
        long acc = 0;
        long start = System.nanoTime();
        for (int i = 0; i < batches && !over(start, s); i++) {
            long t0 = System.nanoTime();
            for (int j = 0; j < b; j++) {
                acc += read.get();
            }
            long t1 = System.nanoTime();
            if (into != null) {
                into.record((t1 - t0) * 1000 / b);
            }
        }
        sink = acc;
    }

    private static void writeBatches(Settings s, Register plain, int batches, Stats into) {
        writeBatches(s, plain::set, batches, into);
    }

    private static void writeBatches(Settings s, LongWrite write, int batches, Stats into) {
        int b = s.readBatch();
        long start = System.nanoTime();
        long v = 0;
        for (int i = 0; i < batches && !over(start, s); i++) {
            long t0 = System.nanoTime();
            for (int j = 0; j < b; j++) {
                write.set(++v);
            }
            long t1 = System.nanoTime();
            if (into != null) {
                into.record((t1 - t0) * 1000 / b);
            }
        }
    }

    /** The invoker's own completion: one replicated write at a time, from the call until it returns. */
    private static void localWrites(Settings s, Register reg) {
        long v = 1L << 40;
        long warm = System.nanoTime();
        JitQuiet jit = JitQuiet.ofMeasurement();
        for (int i = 0; s.warming(i, warm, jit); i++) {
            reg.set(++v);
        }
        Stats h = new Stats();
        long start = System.nanoTime();
        for (int i = 0; i < s.rounds() && !over(start, s); i++) {
            long t0 = System.nanoTime();
            reg.set(++v);
            h.record(System.nanoTime() - t0);
        }
        h.print("write.local.ns");
    }

    /** Batches of 100 writes in a row; the sample is the batch time / 100. */
    private static void gap(Settings s, Register reg) {
        long v = 2L << 40;
        for (int i = 0; i < Math.max(1, s.gapBatches() / 5); i++) {
            for (int j = 0; j < Settings.GAP_WRITES; j++) {
                reg.set(++v);
            }
        }
        Stats h = new Stats();
        long start = System.nanoTime();
        for (int i = 0; i < s.gapBatches() && !over(start, s); i++) {
            long t0 = System.nanoTime();
            for (int j = 0; j < Settings.GAP_WRITES; j++) {
                reg.set(++v);
            }
            h.record((System.nanoTime() - t0) / Settings.GAP_WRITES);
        }
        h.print("gap.ns");
    }

    /** RPC round trips to the invoker; returns the p50 (ns). */
    private static long rpc(Settings s, Invoker invoker) {
        long warm = System.nanoTime();
        JitQuiet jit = JitQuiet.ofMeasurement();
        for (int i = 0; s.warming(i, warm, jit); i++) {
            invoker.ping(i);
        }
        Stats h = new Stats();
        long start = System.nanoTime();
        for (int i = 0; i < s.rounds() && !over(start, s); i++) {
            long t0 = System.nanoTime();
            invoker.ping(i);
            h.record(System.nanoTime() - t0);
        }
        h.print("rpc.ns");
        return h.p50();
    }

    /** Manta §3.5's update time of this replica, per round: t_e - t_s - RTT/2. */
    private static void completion(Settings s, Cluster cluster, Register reg, Invoker invoker, int me, long rttNs)
        throws InterruptedException {
        Stamp stamp = new Stamp(reg);
        CloudRuntime clouds = ((NodeCluster) cluster).capability(CloudRuntime.class);
        clouds.afterEveryWrite(stamp::onWriteApplied);
        try {
            long v = (long) (me + 3) << 40;
            long warm = System.nanoTime();
            JitQuiet jit = JitQuiet.ofMeasurement();
            for (int i = 0; s.warming(i, warm, jit); i++) {
                round(stamp, invoker, ++v);
            }
            Stats update = new Stats();
            Stats raw = new Stats();
            long start = System.nanoTime();
            for (int i = 0; i < s.rounds() && !over(start, s); i++) {
                long te = round(stamp, invoker, ++v);
                update.record(te - rttNs / 2);
                raw.record(te);
            }
            update.print("update.ns");
            raw.print("update.raw.ns");
        } finally {
            clouds.afterEveryWrite(null);
        }
    }

    /** One round; returns t_e - t_s. */
    private static long round(Stamp stamp, Invoker invoker, long v) throws InterruptedException {
        stamp.arm(v);
        long ts = System.nanoTime();
        invoker.write(v);
        return stamp.awaitSeen(ts + 10_000_000_000L) - ts;
    }

    /** Takes t_e on the applying thread when the replica first holds the armed value. */
    static final class Stamp {
        private final Register reg;
        private final AtomicLong target = new AtomicLong(Long.MIN_VALUE);
        private volatile long seenAt;
        private volatile Thread waiter;

        Stamp(Register reg) {
            this.reg = reg;
        }

        void arm(long v) {
            seenAt = 0;
            waiter = Thread.currentThread();
            target.set(v);
        }

        /** Runs right after each write this node applied (any cloud): reads the replica's field, no monitor. */
        void onWriteApplied() {
            long t = target.get();
            if (t != Long.MIN_VALUE && reg.peek() == t) {
                long now = System.nanoTime();
                if (target.compareAndSet(t, Long.MIN_VALUE)) { // never wipe the next round's target
                    seenAt = now;
                    LockSupport.unpark(waiter);
                }
            }
        }

        long awaitSeen(long deadline) throws InterruptedException {
            while (seenAt == 0) {
                LockSupport.parkNanos(50_000);
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("write " + target.get() + " did not reach this replica in 10 s");
                }
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            return seenAt;
        }
    }

    /** The invoking process's remote object. */
    public static final class InvokerService implements Invoker {
        private final Register reg;

        InvokerService(Register reg) {
            this.reg = reg;
        }

        @Override
        public void write(long v) {
            reg.set(v);
        }

        @Override
        public long ping(long v) {
            return v;
        }
    }
}
