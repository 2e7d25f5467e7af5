package dev.cumulus.bench.migration;

import dev.cumulus.Cluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.migration.MovingObjects.Blob;
import dev.cumulus.bench.migration.MovingObjects.BlobImpl;
import dev.cumulus.bench.migration.MovingObjects.Counter;
import dev.cumulus.bench.migration.MovingObjects.CounterImpl;
import dev.cumulus.bench.migration.MovingObjects.Ping;
import dev.cumulus.bench.migration.MovingObjects.PingImpl;
import dev.cumulus.bench.migration.MovingObjects.SafeCounterImpl;
import dev.cumulus.bench.migration.MovingObjects.Sink;
import dev.cumulus.bench.migration.MovingObjects.SinkImpl;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One of the five node processes of the migration suite, started by {@link MigrationBench} with the launch contract
 * of {@code cumulus run}. It prints {@code RESULT name key=value ...} lines (times in ns) and then {@code DONE}:
 *
 * <pre>
 * RESULT pause.SIZE p50=.. p99=.. count=..     node 1: Remote.migrate (IDLE) of a SIZE-byte object, node 1 to 2
 * RESULT call.SIZE p50=.. p99=.. count=..      node 1: one remote call carrying SIZE bytes to node 2
 * RESULT chainC.first|later|direct p50=.. p99=.. count=..   node 0: part (b)
 * RESULT load.KIND.PHASE.nodeN calls=.. lost=.. doubled=.. ns=..   nodes 0, 1: part (c), PHASE static or moving
 * RESULT load.KIND.moves count=.. ns=..        node 4: the moves it made
 * </pre>
 */
public final class MigrationNode {
    static final int NODES = 5;
    /**
     * The nodes that call in part (c), 0 and 1; the object moves round the others, 2..4, so that every call is
     * remote, as in the static run (node 4 holds it at first and moves it).
     */
    static final int CALLERS = 2;

    private MigrationNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        Settings s = Settings.current();
        try (Cluster cluster = Cluster.join()) {
            if (cluster.size() != NODES) {
                throw new IllegalStateException("the migration suite runs on " + NODES + " nodes, not " + cluster.size());
            }
            pauseVersusSize(cluster, s);
            staleProxies(cluster, s);
            underLoad(cluster, s, Migration.DELAYED);
            underLoad(cluster, s, Migration.SAFE_POINT);
            cluster.barrier();
        }
        ChildIo.line("DONE");
        System.exit(0);
    }

    // ---------------------------------------------------------------- (a) pause against state size

    private static void pauseVersusSize(Cluster cluster, Settings s) {
        int me = cluster.nodeId();
        if (me == 2) {
            cluster.export(new SinkImpl(), Sink.class, "sink");
        }
        cluster.barrier();
        for (int k = 0; k < s.sizes().length; k++) {
            int size = s.sizes()[k];
            if (me == 1) {
                Sink sink = cluster.lookup("sink", Sink.class);
                Blob blob = cluster.export(new BlobImpl(size), Blob.class, "blob-" + size);
                byte[] bytes = new byte[size];
                long[] pause = new long[s.reps()[k]];
                long[] call = new long[s.reps()[k]];
                for (int i = -s.warmups()[k]; i < s.reps()[k]; i++) {
                    long t0 = System.nanoTime();
                    if (sink.take(bytes) != size) {
                        throw new IllegalStateException("the sink got a wrong array");
                    }
                    long t1 = System.nanoTime();
                    Remote.migrate(blob, 2, Migration.IDLE); // asked on the object's node: the pause itself
                    long t2 = System.nanoTime();
                    Remote.migrate(blob, 1, Migration.IDLE); // back, asked from here: not measured
                    if (i >= 0) {
                        call[i] = t1 - t0;
                        pause[i] = t2 - t1;
                    }
                }
                if (blob.length() != size || Remote.nodeOf(blob) != 1) {
                    throw new IllegalStateException("the blob came back wrong");
                }
                result("pause." + size, pause);
                result("call." + size, call);
            }
            cluster.barrier();
        }
    }

    // ---------------------------------------------------------------- (b) stale proxies

    private static void staleProxies(Cluster cluster, Settings s) {
        int me = cluster.nodeId();
        int total = s.chainWarmup() + s.chainReps();
        for (int chain : Settings.CHAINS) {
            int last = 1 + chain;
            Ping[] moving = new Ping[total];
            if (me == 1) {
                for (int r = 0; r < total; r++) {
                    moving[r] = cluster.export(new PingImpl(), Ping.class, "stale-" + chain + "-" + r);
                }
            }
            if (me == last) {
                cluster.export(new PingImpl(), Ping.class, "direct-" + chain);
            }
            cluster.barrier();
            Ping[] stale = new Ping[total];
            Ping direct = null;
            if (me == 0) {
                for (int r = 0; r < total; r++) {
                    stale[r] = cluster.lookup("stale-" + chain + "-" + r, Ping.class); // says node 1
                }
                direct = cluster.lookup("direct-" + chain, Ping.class);
            }
            cluster.barrier();
            if (me == 1) {
                for (Ping p : moving) {
                    for (int hop = 1; hop <= chain; hop++) {
                        Remote.migrate(p, 1 + hop, Migration.IDLE); // leaves a forwarding address on each node
                    }
                }
            }
            cluster.barrier();
            if (me == 0) {
                long[] first = new long[s.chainReps()];
                long[] later = new long[s.chainReps() * s.laterCalls()];
                long[] straight = new long[s.chainReps() * s.laterCalls()];
                for (int r = 0; r < total; r++) {
                    int m = r - s.chainWarmup();
                    long t0 = System.nanoTime();
                    check(stale[r].ping(r), r);
                    long t1 = System.nanoTime();
                    if (Remote.nodeOf(stale[r]) != last) {
                        throw new IllegalStateException("the stale proxy did not learn the new node: "
                            + Remote.nodeOf(stale[r]) + ", not " + last);
                    }
                    if (m >= 0) {
                        first[m] = t1 - t0;
                    }
                    for (int c = 0; c < s.laterCalls(); c++) {
                        long a = System.nanoTime();
                        check(stale[r].ping(c), c);
                        long b = System.nanoTime();
                        check(direct.ping(c), c);
                        long d = System.nanoTime();
                        if (m >= 0) {
                            later[m * s.laterCalls() + c] = b - a;
                            straight[m * s.laterCalls() + c] = d - b;
                        }
                    }
                }
                result("chain" + chain + ".first", first);
                result("chain" + chain + ".later", later);
                result("chain" + chain + ".direct", straight);
            }
            cluster.barrier();
        }
    }

    private static void check(int answer, int asked) {
        if (answer != asked + 1) {
            throw new IllegalStateException("ping(" + asked + ") answered " + answer);
        }
    }

    // ---------------------------------------------------------------- (c) calls while the object moves

    private static void underLoad(Cluster cluster, Settings s, Migration kind) {
        for (String phase : new String[] {"static", "moving"}) {
            String name = "load-" + kind + "-" + phase;
            int me = cluster.nodeId();
            if (me == NODES - 1) {
                cluster.export(kind == Migration.SAFE_POINT ? new SafeCounterImpl(CALLERS) : new CounterImpl(CALLERS),
                    Counter.class, name);
            }
            cluster.barrier();
            Counter counter = cluster.lookup(name, Counter.class);
            cluster.barrier();
            long start = System.nanoTime();
            long end = start + TimeUnit.MILLISECONDS.toNanos(s.loadMs());
            String key = "load." + kind + "." + phase;
            if (me < CALLERS) {
                long seq = 0;
                while (System.nanoTime() - end < 0) {
                    counter.apply(me, seq++);
                }
                long ns = System.nanoTime() - start;
                cluster.barrier(); // every caller is done: nothing of theirs is in flight
                long[] r = counter.report(me);
                long lost = r[3] + (seq - r[1]);
                ChildIo.line("RESULT " + key + ".node" + me + " calls=" + seq + " lost=" + lost + " doubled=" + r[2]
                    + " ns=" + ns);
            } else {
                // the static run keeps node 4's main thread as busy as the mover's (a thread waiting in a barrier
                // polls for its node, one in parkNanos does not: the two runs would serve calls differently)
                move(phase.equals("moving") ? counter : null, kind, s, start, end, key);
                cluster.barrier();
            }
            cluster.barrier();
        }
    }

    /**
     * Moves the counter to the next node every {@code moveEveryMs} until {@code end}, round the nodes that do not call;
     * with {@code counter} null, only wakes up as often.
     */
    private static void move(Counter counter, Migration kind, Settings s, long start, long end, String key) {
        long period = TimeUnit.MILLISECONDS.toNanos(s.moveEveryMs());
        long next = start + period;
        int moves = 0;
        int at = counter == null ? NODES - 1 : Remote.nodeOf(counter);
        while (next - end < 0) {
            LockSupport.parkNanos(next - System.nanoTime());
            if (System.nanoTime() - next < 0) {
                continue; // woke early
            }
            if (counter != null) {
                at = at + 1 < NODES ? at + 1 : CALLERS;
                Remote.migrate(counter, at, kind);
                moves++;
            }
            next += period;
            long now = System.nanoTime();
            if (now - next > 0) {
                next = now; // a move took longer than the period: the next starts at once, none is skipped silently
            }
        }
        if (counter != null) {
            ChildIo.line("RESULT " + key + ".moves count=" + moves + " ns=" + (System.nanoTime() - start));
        }
    }

    // ---------------------------------------------------------------- output

    private static void result(String name, long[] ns) {
        long[] sorted = ns.clone();
        Arrays.sort(sorted);
        ChildIo.line("RESULT " + name + " p50=" + percentile(sorted, 50) + " p99=" + percentile(sorted, 99)
            + " count=" + sorted.length);
    }

    /** Nearest rank: the smallest sample with at least {@code p} % of the samples at or below it. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
