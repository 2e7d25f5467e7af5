package dev.cumulus.bench.hostile;

import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.Cluster;
import dev.cumulus.bench.ChildIo;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.TransportContext;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * One of the two node processes of the hostile suite, started by {@link HostileBench} as {@code cumulus run} starts
 * nodes. Node 0 exports a {@link Target} and serves; node 1 is the attacker: it times normal calls, sends each hostile
 * input {@code reps} times, each timed from send to the refusal it sees, times normal calls again and reads node 0's
 * heap. It prints (times in ns, sizes in bytes):
 *
 * <pre>
 * RESULT in.KEY sent=.. refused=.. bytes=.. p50=.. p99=.. max=..   one hostile input
 * RESULT calls.before sent=.. ok=.. p50=.. p99=.. max=..   normal calls (and after: calls.after)
 * RESULT heap before=.. after=..        node 0's heap used after a GC
 * RESULT serving ok=true|false          a normal call to node 0 answered right after the attack
 * </pre>
 *
 * then {@code DONE}. {@code -Dbench.hostile.mode=ipc} sends the hostile calls and the raw IPC frames; {@code udp} the
 * raw UDP frames (the run's nodes talk UDP, each with a driver of its own).
 */
public final class HostileNode {
    static final int NODES = 2;
    static final String MODE = "bench.hostile.mode";
    static final String REPS = "bench.hostile.reps";
    static final String CALLS = "bench.hostile.calls";
    static final String NULLS = "bench.hostile.nulls";
    /**
     * How long the attacker waits for one refusal before it counts the input as not refused: long, so that only an
     * input the node does not refuse is counted so, not one refused late on a loaded box (the times show that).
     */
    static final long REFUSAL_WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    private final Target target;
    private final LaunchConfig config;
    private final int reps;

    private HostileNode(Target target, LaunchConfig config, int reps) {
        this.target = target;
        this.config = config;
        this.reps = reps;
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        String mode = System.getProperty(MODE, "ipc");
        int reps = Integer.getInteger(REPS, 20);
        int calls = Integer.getInteger(CALLS, 500);
        try (Cluster cluster = Cluster.join()) {
            if (cluster.size() != NODES) {
                throw new IllegalStateException("the hostile suite runs on " + NODES + " nodes, not " + cluster.size());
            }
            if (cluster.nodeId() == 0) {
                cluster.export(new TargetImpl((NodeCluster) cluster), Target.class, "target");
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                HostileNode attacker = new HostileNode(cluster.lookup("target", Target.class),
                    LaunchConfig.fromProperties(System.getProperties()), reps);
                attacker.attack(mode, calls);
            }
            cluster.barrier();
        }
        ChildIo.line("DONE");
        System.exit(0);
    }

    private void attack(String mode, int calls) throws Exception {
        normalCalls(calls); // warm-up
        normalCalls(calls).print("calls.before", "ok");
        long heapBefore = target.figures(true)[Target.HEAP_USED];
        if (mode.equals("ipc")) {
            hostileCalls();
            ipcFrames();
        } else {
            udpFrames();
        }
        normalCalls(calls).print("calls.after", "ok");
        long heapAfter = target.figures(true)[Target.HEAP_USED];
        ChildIo.line("RESULT heap before=" + heapBefore + " after=" + heapAfter);
        ChildIo.line("RESULT serving ok=" + (target.echo(41) == 42));
    }

    // ------------------------------------------------------------------ calls

    private void hostileCalls() throws Exception {
        Method count = Target.class.getMethod("count", Collection.class);
        Method colliders = Target.class.getMethod("countColliders", Collection.class);
        Method take = Target.class.getMethod("take", Object.class);
        call("bomb", count, HostileInputs.backReferenceBomb(), "CodecLimits.maxDecodeWork");
        call("colliders", colliders, HostileInputs.collidingSet(), "CodecLimits.maxDecodeWork");
        call("nulls", count, HostileInputs.nullsList(Integer.getInteger(NULLS, 2_000_000)),
            "CodecLimits.maxDecodeHeapBytes");
        call("stranger", take, HostileInputs.notOnTheAllowList(), "allow-list");
    }

    /** Sends {@code bytes} as the arguments of {@code method}; a refusal is the error answer naming {@code why}. */
    private void call(String key, Method method, byte[] bytes, String why) {
        Samples s = new Samples(reps);
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            boolean refused;
            try {
                HandMadeCalls.call(target, method, bytes, REFUSAL_WAIT_NS);
                refused = false;
            } catch (Throwable e) {
                refused = String.valueOf(e.getMessage()).contains(why);
                if (!refused) {
                    System.err.println("hostile: " + key + " failed otherwise than refused for '" + why + "': " + e);
                }
            }
            s.add(System.nanoTime() - t0, refused);
        }
        s.print("in." + key + " bytes=" + bytes.length, "refused");
    }

    // ------------------------------------------------------------------ raw frames

    /** Frames offered on node 0's data stream through the run's driver, as any process of the run's user could. */
    private void ipcFrames() {
        TransportContext ctx = new TransportContext(config.aeronDir(), false, List.of(), config.streamBase(),
            TransportContext.runTagOf(config.runId()), TransportContext.DEFAULT_DATA_TERM_LENGTH,
            TransportContext.DEFAULT_MAX_MESSAGE_BYTES);
        int runTag = ctx.runTag();
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(config.aeronDir()));
             Publication raw = aeron.addPublication("aeron:ipc", ctx.streamId(0, Channel.DATA))) {
            awaitConnected(raw);
            long[] messageId = {1L << 40};
            frames("chunk", HostileInputs.oversizedChunk(1, runTag, 0).capacity(), f -> f[Target.DROPPED_CHUNKED],
                () -> offer(raw, HostileInputs.oversizedChunk(1, runTag, messageId[0]++)));
            Random random = new Random(24);
            // the garbage is dropped without a count; an oversized chunk behind it on the same stream (in order) is
            // counted: once it is, the garbage was handled
            frames("garbage", HostileInputs.GARBAGE_BYTES, f -> f[Target.DROPPED_CHUNKED], () -> {
                offer(raw, HostileInputs.garbage(1, runTag, random));
                offer(raw, HostileInputs.oversizedChunk(1, runTag, messageId[0]++));
            });
        }
    }

    /** Frames over UDP to node 0's endpoint: a setup frame as raw datagrams, a forged sealed frame through a driver. */
    private void udpFrames() throws Exception {
        String[] endpoint = config.endpoints().getFirst().split(":");
        InetSocketAddress node0 = new InetSocketAddress(endpoint[0], Integer.parseInt(endpoint[1]));
        // node 1's own driver (every node of a UDP run has one) sends the forged frames, as a stranger's would
        String ownDriver = DriverHost.defaultDirectory(config.runId() + "-node1");
        TransportContext ctx = new TransportContext(ownDriver, true, config.endpoints(), config.streamBase(),
            TransportContext.runTagOf(config.runId()), TransportContext.DEFAULT_DATA_TERM_LENGTH,
            TransportContext.DEFAULT_MAX_MESSAGE_BYTES);
        int stream = ctx.streamId(0, Channel.DATA);
        try (DatagramSocket socket = new DatagramSocket()) {
            int[] session = {0x5e70_0000};
            frames("setup", HostileInputs.oversizedSetup(stream, 0).length, f -> f[Target.DROPPED_SETUPS], () -> {
                byte[] setup = HostileInputs.oversizedSetup(stream, session[0]++);
                try {
                    socket.send(new DatagramPacket(setup, setup.length, node0));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot send a datagram to " + node0 + ": " + e.getMessage(), e);
                }
            });
        }
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(ownDriver));
             ExclusivePublication raw = aeron.addExclusivePublication("aeron:udp?endpoint="
                 + config.endpoints().getFirst() + "|term-length=" + TransportContext.DEFAULT_DATA_TERM_LENGTH, stream)) {
            awaitConnected(raw);
            Random random = new Random(24);
            long[] counter = {1L << 40};
            int length = HostileInputs.forgedSealed(1, ctx.runTag(), 0, random).capacity();
            frames("forged", length, f -> f[Target.REJECTED_FRAMES],
                () -> offer(raw, HostileInputs.forgedSealed(1, ctx.runTag(), counter[0]++, random)));
        }
    }

    /** Sends with {@code send}, {@code reps} times; a refusal is the counter {@code counted} of node 0 going up. */
    private void frames(String key, int bytes, ToLongFunction<long[]> counted, Runnable send) {
        Samples s = new Samples(reps);
        for (int i = 0; i < reps; i++) {
            long before = counted.applyAsLong(target.figures(false));
            long t0 = System.nanoTime();
            send.run();
            boolean refused = false;
            while (System.nanoTime() - t0 < REFUSAL_WAIT_NS) {
                if (counted.applyAsLong(target.figures(false)) > before) {
                    refused = true;
                    break;
                }
            }
            s.add(System.nanoTime() - t0, refused);
        }
        s.print("in." + key + " bytes=" + bytes, "refused");
    }

    private static void awaitConnected(Publication p) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!p.isConnected()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the raw publication to " + p.channel() + " did not connect in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void offer(Publication p, UnsafeBuffer frame) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.offer(frame, 0, frame.capacity()) < 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the raw publication to " + p.channel() + " took no frame in 10 s");
            }
            Thread.onSpinWait();
        }
    }

    // ------------------------------------------------------------------ normal calls and figures

    private Samples normalCalls(int n) {
        Samples s = new Samples(n);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            boolean right = target.echo(i) == i + 1;
            s.add(System.nanoTime() - t0, right);
        }
        return s;
    }

    /** Times of one kind of sample, and how many of them ended as they should (refused, or answered right). */
    private static final class Samples {
        private final long[] ns;
        private int count;
        private int good;

        Samples(int capacity) {
            ns = new long[capacity];
        }

        void add(long elapsedNs, boolean ok) {
            ns[count++] = elapsedNs;
            if (ok) {
                good++;
            }
        }

        /** Prints the RESULT line; {@code goodKey} names the samples that ended as they should. */
        void print(String name, String goodKey) {
            long[] sorted = Arrays.copyOf(ns, count);
            Arrays.sort(sorted);
            ChildIo.line("RESULT " + name + " sent=" + count + " " + goodKey + "=" + good + " p50=" + percentile(sorted, 50)
                + " p99=" + percentile(sorted, 99) + " max=" + (count == 0 ? 0 : sorted[count - 1]));
        }
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
