package dev.cumulus.bench.peers;

import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.Workload;
import dev.cumulus.internal.transport.IdleStrategies;
import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Raw Aeron ping-pong through the media driver of its host ({@code -Dbench.aeron.dir}): IPC through the shared driver
 * the orchestrator hosts, or over hosts UDP unicast between the hosts' drivers, process {@code i} receiving on the
 * {@code i}-th of {@code -Dbench.aeron.endpoints} ({@code host:port,...}, as the Cumulus nodes do). With
 * the same idle strategy as the Cumulus nodes ({@code -Dbench.idle}, parsed by the runtime's IdleStrategies) and the
 * same client set-up (conductor invoked from the polling thread). One thread per process does everything: no
 * hand-off. Process {@code i} subscribes to stream {@code 2000 + i}; a message is {@code [sender:4][seq:8]} padded
 * to the payload size, echoed verbatim.
 *
 * <ul>
 *   <li>{@code server SELF CLIENTS}: echoes to the sender;</li>
 *   <li>{@code sync SELF SERVERS}: one message at a time, round robin over the servers;</li>
 *   <li>{@code async SELF SERVER}: keeps {@code window} messages in flight.</li>
 * </ul>
 */
public final class AeronPingPong {
    /** Process i receives on stream base + i: 2000, or {@code -Dbench.aeron.stream.base} (over hosts). */
    static final int STREAM_BASE = Integer.getInteger("bench.aeron.stream.base", 2000);
    static final String CHANNEL = "aeron:ipc?term-length=8m";
    /** With hosts: every process's UDP endpoint, by process id; null for IPC. */
    private static final String[] ENDPOINTS = endpoints(System.getProperty("bench.aeron.endpoints"));

    private final Aeron aeron;
    private final AgentInvoker conductor;
    private final IdleStrategy idle;
    private final Subscription sub;
    private final Map<Integer, Publication> pubs = new HashMap<>();
    private final UnsafeBuffer out;
    private final int self;
    private long received;

    private AeronPingPong(int self, int[] peers, int payloadBytes) {
        this.self = self;
        this.aeron = Aeron.connect(new Aeron.Context()
            .aeronDirectoryName(System.getProperty("bench.aeron.dir"))
            .useConductorAgentInvoker(true)
            .driverTimeoutMs(10_000));
        this.conductor = aeron.conductorAgentInvoker();
        this.idle = IdleStrategies.parse(System.getProperty("bench.idle", "backoff"));
        this.sub = aeron.addSubscription(channel(self), STREAM_BASE + self);
        for (int p : peers) {
            pubs.put(p, aeron.addPublication(channel(p), STREAM_BASE + p));
        }
        this.out = new UnsafeBuffer(new byte[payloadBytes]);
        out.putInt(0, self, ByteOrder.LITTLE_ENDIAN);
    }

    private static String[] endpoints(String list) {
        return list == null || list.isBlank() ? null : list.split(",");
    }

    /** Where process {@code id} receives: IPC, or its UDP endpoint. */
    private static String channel(int id) {
        // the term length the hosts' drivers accept (they drop setup frames that declare more than Cumulus uses)
        return ENDPOINTS == null ? CHANNEL : "aeron:udp?endpoint=" + ENDPOINTS[id] + "|term-length=8m";
    }

    public static void main(String[] argv) throws Exception {
        ChildIo.exitWithParent();
        ChildIo.applyTimerSlack();
        Args args = Args.parse(argv);
        Workload w = Workload.current();
        AeronPingPong p = new AeronPingPong(args.self(), args.ids(), w.payloadBytes());
        switch (args.role()) {
            case "server" -> p.serve();
            case "sync" -> p.sync(w, args.ids());
            case "async" -> p.async(w, args.ids()[0]);
            default -> throw new IllegalArgumentException("unknown role " + args.role());
        }
    }

    private void awaitConnected() {
        for (Publication pub : pubs.values()) {
            while (!pub.isConnected()) {
                conductor.invoke();
                Thread.onSpinWait();
            }
        }
    }

    private void offer(Publication pub, UnsafeBuffer buf, int offset, int length) {
        while (pub.offer(buf, offset, length) < 0) {
            conductor.invoke();
            Thread.onSpinWait();
        }
    }

    private void serve() {
        ChildIo.line("READY " + (STREAM_BASE + self));
        boolean handoff = Boolean.getBoolean("bench.aeron.server.handoff");
        ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
        FragmentHandler echo = (buffer, offset, length, header) -> {
            int sender = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
            Publication pub = pubs.get(sender);
            if (pub == null) {
                return;
            }
            if (handoff) {
                // what RpcEngine does: copy, run the call on a virtual thread, which offers the reply itself
                byte[] copy = new byte[length];
                buffer.getBytes(offset, copy);
                calls.execute(() -> {
                    UnsafeBuffer b = new UnsafeBuffer(copy);
                    while (pub.offer(b, 0, copy.length) < 0) {
                        Thread.onSpinWait();
                    }
                });
                return;
            }
            while (pub.offer(buffer, offset, length) < 0) {
                conductor.invoke();
                Thread.onSpinWait();
            }
        };
        while (!Thread.currentThread().isInterrupted()) {
            idle.idle(conductor.invoke() + sub.poll(echo, 16));
        }
    }

    private void sync(Workload w, int[] servers) throws Exception {
        awaitConnected();
        Publication[] targets = new Publication[servers.length];
        for (int i = 0; i < servers.length; i++) {
            targets[i] = pubs.get(servers[i]);
        }
        FragmentHandler onReply = (buffer, offset, length, header) -> received++;
        ChildIo.readyAndAwaitGo("stream " + (STREAM_BASE + self));
        if (Boolean.getBoolean("bench.aeron.client.handoff")) {
            syncWithPoller(w, targets);
            return;
        }
        ChildIo.measureSync(w, i -> {
            out.putLong(4, i, ByteOrder.LITTLE_ENDIAN);
            long want = received + 1;
            offer(targets[i % targets.length], out, 0, out.capacity());
            idle.reset();
            while (received < want) {
                int work = conductor.invoke() + sub.poll(onReply, 1);
                if (received < want) {
                    idle.idle(work);
                }
            }
        });
    }

    /**
     * What a Cumulus caller does: the calling thread offers and parks on a future; a separate polling thread (the
     * node's agent) runs the duty cycle with the idle strategy and completes the future, which unparks the caller.
     */
    private void syncWithPoller(Workload w, Publication[] targets) throws Exception {
        AtomicReference<CompletableFuture<Void>> waiting = new AtomicReference<>();
        FragmentHandler onReply = (buffer, offset, length, header) -> {
            CompletableFuture<Void> f = waiting.getAndSet(null);
            if (f != null) {
                f.complete(null);
            }
        };
        Thread poller = Thread.ofPlatform().daemon().name("poller").start(() -> {
            while (true) {
                idle.idle(conductor.invoke() + sub.poll(onReply, 16));
            }
        });
        ChildIo.measureSync(w, i -> {
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiting.set(f);
            UnsafeBuffer b = new UnsafeBuffer(new byte[out.capacity()]);
            b.putInt(0, self, ByteOrder.LITTLE_ENDIAN);
            b.putLong(4, i, ByteOrder.LITTLE_ENDIAN);
            Publication pub = targets[i % targets.length];
            while (pub.offer(b, 0, b.capacity()) < 0) {
                Thread.onSpinWait();
            }
            f.get();
        });
        poller.interrupt();
    }

    private void async(Workload w, int server) throws Exception {
        awaitConnected();
        Publication pub = pubs.get(server);
        ChildIo.readyAndAwaitGo("stream " + (STREAM_BASE + self));
        long[] seq = {0};
        boolean[] sending = {true};
        FragmentHandler onReply = (buffer, offset, length, header) -> {
            received++;
            if (sending[0]) {
                out.putLong(4, seq[0]++, ByteOrder.LITTLE_ENDIAN);
                offer(pub, out, 0, out.capacity());
            }
        };
        for (int i = 0; i < w.window(); i++) {
            out.putLong(4, seq[0]++, ByteOrder.LITTLE_ENDIAN);
            offer(pub, out, 0, out.capacity());
        }
        ChildIo.AsyncWarmup warmup = new ChildIo.AsyncWarmup(w);
        long end = 0;
        long c0 = -1;
        long t0 = 0;
        while (true) {
            long now = System.nanoTime();
            if (c0 < 0 && warmup.over()) {
                c0 = received;
                t0 = now;
                end = now + w.asyncMeasureNs();
            }
            if (c0 >= 0 && now - end >= 0) {
                sending[0] = false;
                ChildIo.asyncResult(received - c0, now - t0);
                break;
            }
            idle.idle(conductor.invoke() + sub.poll(onReply, 16));
        }
        aeron.close();
    }
}
