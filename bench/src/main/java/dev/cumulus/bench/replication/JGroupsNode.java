package dev.cumulus.bench.replication;

import dev.cumulus.bench.ChildIo;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One member of the JGroups peer of the replication suite: a real JGroups stack with SEQUENCER total order
 * ({@code jgroups-sequencer.xml}, TCP on 127.0.0.1, or over hosts on the host's address
 * {@code -Dbench.bind}), measured the way {@link ReplicaNode} measures Cumulus:
 *
 * <ul>
 *   <li>a "write" is a totally ordered multicast of the same payload (the 8-byte value), complete at a member when
 *       the member's receiver gets it; at the invoker when its own copy comes back (like a replicated write, which
 *       returns when the local replica applied it);</li>
 *   <li>invoker: single writes each timed until its own delivery; batches of 100 such writes (the gap);</li>
 *   <li>every other member in turn (on a TURN message from the invoker): unicast round trips to the invoker
 *       (PING/PONG, the RPC of this stack), then completion rounds: t_s, unicast REQ(v) to the invoker, which
 *       multicasts DATA(v), waits for its own delivery and replies; t_e is taken in this member's receiver when
 *       DATA(v) arrives; the sample is t_e - t_s - RTT/2.</li>
 * </ul>
 * The coordinator (member 0, started first) is the sequencer; the invoker is the last member, as in the Cumulus
 * measurement, so its writes are forwarded to the sequencer like writes to Cumulus's static sequencer.
 *
 * <p>Arguments: {@code index members bindPort initialHosts cluster}.
 */
public final class JGroupsNode implements Receiver {
    private static final byte DATA = 1;
    private static final byte PING = 2;
    private static final byte PONG = 3;
    private static final byte REQ = 4;
    private static final byte DONE = 5;
    private static final byte TURN = 6;
    private static final byte FIN = 7;
    private static final byte STOP = 8;

    private final int index;
    private final int members;
    private final Settings settings;
    private JChannel channel;
    private final LinkedBlockingQueue<long[]> control = new LinkedBlockingQueue<>();
    private volatile View view;

    // one outstanding exchange at a time per member
    // (cleared by compare-and-set before the time is published: a late clear must never wipe the next exchange's value)
    private final AtomicLong awaited = new AtomicLong(Long.MIN_VALUE);
    private volatile long arrivedAt;
    private volatile Thread waiter;
    // the member's DATA watch (t_e)
    private final AtomicLong watched = new AtomicLong(Long.MIN_VALUE);
    private volatile long watchedAt;

    private JGroupsNode(int index, int members, Settings settings) {
        this.index = index;
        this.members = members;
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        System.setProperty("java.net.preferIPv4Stack", "true");
        int index = Integer.parseInt(args[0]);
        int members = Integer.parseInt(args[1]);
        // over hosts: its host's address
        System.setProperty("jgroups.bind_addr", System.getProperty("bench.bind", "127.0.0.1"));
        System.setProperty("jgroups.bind_port", args[2]);
        System.setProperty("jgroups.tcpping.initial_hosts", args[3]);
        JGroupsNode node = new JGroupsNode(index, members, Settings.current());
        node.run(args[4]);
    }

    private void run(String clusterName) throws Exception {
        try (InputStream stack = JGroupsNode.class.getResourceAsStream("jgroups-sequencer.xml")) {
            channel = new JChannel(stack);
        }
        channel.name("m" + index);
        channel.setReceiver(this);
        channel.connect(clusterName);
        ChildIo.line("READY m" + index);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (view == null || view.size() < members) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("JGroups view has " + (view == null ? 0 : view.size()) + " of "
                    + members + " members after 60 s");
            }
            Thread.sleep(10);
        }
        int inv = settings.invokerOf(members);
        if (index == inv) {
            invoker();
        } else {
            serve(inv);
        }
        ChildIo.line("DONE");
        channel.close();
    }

    /** Member {@code m<i>}; waits for its logical name to reach this member (it may still print as a UUID). */
    private Address member(int i) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            for (Address a : view.getMembers()) {
                if (("m" + i).equals(a.toString())) {
                    return a;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no member m" + i + " in " + view + " after 30 s");
            }
            Thread.sleep(10);
        }
    }

    private void send(Address to, byte type, long v) throws Exception {
        byte[] b = new byte[9];
        ByteBuffer.wrap(b).put(type).putLong(v);
        channel.send(new BytesMessage(to, b));
    }

    /** Sends and parks until the answer (DONE, PONG or own DATA) with value {@code v} arrives; returns its time. */
    private long exchange(Address to, byte type, long v) throws Exception {
        arrivedAt = 0;
        waiter = Thread.currentThread();
        awaited.set(v);
        send(to, type, v);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (arrivedAt == 0) {
            LockSupport.parkNanos(100_000);
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no answer to message " + type + "/" + v + " within 10 s");
            }
        }
        return arrivedAt;
    }

    private boolean over(long start) {
        return System.nanoTime() - start > settings.phaseMaxNs();
    }

    private void invoker() throws Exception {
        ChildIo.line("PHASE local start");
        long v = 1L << 40;
        long warm = System.nanoTime();
        for (int i = 0; settings.warming(i, warm); i++) {
            exchange(null, DATA, ++v);
        }
        Stats local = new Stats();
        long start = System.nanoTime();
        for (int i = 0; i < settings.rounds() && !over(start); i++) {
            long t0 = System.nanoTime();
            local.record(exchange(null, DATA, ++v) - t0);
        }
        local.print("write.local.ns");
        Stats gap = new Stats();
        start = System.nanoTime();
        for (int i = 0; i < settings.gapBatches() && !over(start); i++) {
            long t0 = System.nanoTime();
            for (int j = 0; j < Settings.GAP_WRITES; j++) {
                exchange(null, DATA, ++v);
            }
            gap.record((System.nanoTime() - t0) / Settings.GAP_WRITES);
        }
        gap.print("gap.ns");
        ChildIo.line("PHASE local end");
        for (int k = 0; k < members; k++) {
            if (k != index) {
                send(member(k), TURN, k);
                long[] fin = control.poll(120, TimeUnit.SECONDS);
                if (fin == null || fin[0] != FIN) {
                    throw new IllegalStateException("member m" + k + " did not finish its turn");
                }
            }
        }
        for (int k = 0; k < members; k++) {
            if (k != index) {
                send(member(k), STOP, 0);
            }
        }
    }

    private void serve(int inv) throws Exception {
        Address invoker = member(inv);
        while (true) {
            long[] c = control.poll(300, TimeUnit.SECONDS);
            if (c == null || c[0] == STOP) {
                return;
            }
            // RPC round trips
            long warm = System.nanoTime();
            for (int i = 0; settings.warming(i, warm); i++) {
                exchange(invoker, PING, i);
            }
            Stats rpc = new Stats();
            long start = System.nanoTime();
            for (int i = 0; i < settings.rounds() && !over(start); i++) {
                long t0 = System.nanoTime();
                rpc.record(exchange(invoker, PING, i) - t0);
            }
            rpc.print("rpc.ns");
            long rtt = rpc.p50();
            long v = (long) (index + 3) << 40;
            warm = System.nanoTime();
            for (int i = 0; settings.warming(i, warm); i++) {
                round(invoker, ++v);
            }
            Stats update = new Stats();
            Stats raw = new Stats();
            start = System.nanoTime();
            for (int i = 0; i < settings.rounds() && !over(start); i++) {
                long d = round(invoker, ++v);
                update.record(d - rtt / 2);
                raw.record(d);
            }
            update.print("update.ns");
            raw.print("update.raw.ns");
            send(invoker, FIN, index);
        }
    }

    /** t_e - t_s for one write the invoker multicasts at this member's request. */
    private long round(Address invoker, long v) throws Exception {
        watchedAt = 0;
        watched.set(v);
        long ts = System.nanoTime();
        exchange(invoker, REQ, v);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (watchedAt == 0) {
            LockSupport.parkNanos(50_000);
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("DATA " + v + " not delivered here within 10 s");
            }
        }
        return watchedAt - ts;
    }

    @Override
    public void receive(Message msg) {
        long now = System.nanoTime();
        ByteBuffer b = ByteBuffer.wrap(msg.getArray(), msg.getOffset(), msg.getLength());
        byte type = b.get();
        long v = b.getLong();
        try {
            switch (type) {
                case DATA -> {
                    if (watched.compareAndSet(v, Long.MIN_VALUE)) {
                        watchedAt = now;
                    }
                    if (msg.getSrc().equals(channel.getAddress())) {
                        arrive(v, now);
                    }
                }
                case PING -> send(msg.getSrc(), PONG, v);
                case PONG, DONE -> arrive(v, now);
                case REQ -> {
                    // the invoker: multicast in total order, wait for the own copy, reply (like Invoker.write)
                    exchangeFromReceiver(v);
                    send(msg.getSrc(), DONE, v);
                }
                case TURN, STOP -> control.add(new long[] {type, v});
                case FIN -> control.add(new long[] {type, v});
                default -> throw new IllegalStateException("unknown message type " + type);
            }
        } catch (Exception e) {
            ChildIo.line("ERROR " + e);
            Runtime.getRuntime().halt(3);
        }
    }

    private void exchangeFromReceiver(long v) throws Exception {
        exchange(null, DATA, v);
    }

    private void arrive(long v, long now) {
        if (awaited.compareAndSet(v, Long.MIN_VALUE)) {
            arrivedAt = now;
            LockSupport.unpark(waiter);
        }
    }

    @Override
    public void viewAccepted(View v) {
        view = v;
    }
}
