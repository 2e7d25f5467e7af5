package dev.cumulus.internal.cloud;

import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.node.NodeSettings.Sequencer;
import dev.cumulus.internal.node.OrderChannel;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * Runs a node's {@link TotalOrder} on the node's {@link OrderChannel}: decodes what arrives, encodes what it sends,
 * and keeps one FIFO outbox per destination so back-pressure never blocks the agent thread. Messages too large for
 * one Aeron message go out on a virtual thread (chunked by the transport) in their turn.
 *
 * <p>Threads: {@link #submit} from any thread; the rest is an Agrona agent run in the node's duty cycle.
 */
public final class BroadcastEndpoint implements OrderChannel.Endpoint {

    /** A network below the ordering layer that misbehaves on purpose (tests): it may hold messages until ticked. */
    public interface FaultyNetwork extends TotalOrder.Network {
        /** Called every duty cycle on the agent thread; releases held messages. Returns work done. */
        int tick();
    }

    private static volatile BiFunction<Integer, TotalOrder.Network, FaultyNetwork> faults;

    /**
     * Test seam: endpoints created from now on send through {@code wrapper.apply(node, realNetwork)} (delay,
     * reorder, ...). {@code null} removes it. Never set in production code.
     */
    public static void injectFaults(BiFunction<Integer, TotalOrder.Network, FaultyNetwork> wrapper) {
        faults = wrapper;
    }

    private final FaultyNetwork faulty;

    private final OrderChannel channel;
    private final TotalOrder order;
    private final int self;
    /** The reason a sequencer migration event gives: made once, not per arrival. */
    private final String arrivalReason;
    private final int size;
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(256);
    /** The order message being sent, over {@link #scratch}, and the one received (agent thread). */
    private final OrderFlyweight orderOut = new OrderFlyweight().wrap(scratch, 0);
    private final OrderFlyweight orderIn = new OrderFlyweight();
    private final Outbox[] outboxes;
    private final ExecutorService bigSends;
    private final long stuckNs;
    private volatile TotalOrder.Delivery delivery = (seq, origin, payload) -> { };
    private final ConcurrentLinkedQueue<String[]> sendFailures = new ConcurrentLinkedQueue<>();
    private final boolean[] left;
    /** The static sequencer, on a node that submits to it ({@link #submitNow}); -1 elsewhere. */
    private final int submitTo;

    private static final class Outbox {
        final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        volatile boolean sendingBig;
        long headSinceNs;
    }

    /**
     * @param self    this node's id
     * @param size    the number of nodes
     * @param stuckNs how long a destination may take nothing before it is declared failed ({@link OrderChannel#fail};
     *                the node's settings derive it from the heartbeat timeout)
     */
    public BroadcastEndpoint(OrderChannel channel, int self, int size, Sequencer mode, int initialHolder,
                             long stuckNs) {
        this.stuckNs = stuckNs;
        this.channel = channel;
        this.self = self;
        this.arrivalReason = "node " + self + " broadcasts";
        this.size = size;
        this.outboxes = new Outbox[size];
        this.left = new boolean[size];
        for (int i = 0; i < size; i++) {
            outboxes[i] = new Outbox();
        }
        this.bigSends = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("cumulus-order-send-", 0).factory());
        var wrapper = faults;
        this.faulty = wrapper == null ? null : wrapper.apply(self, this::send);
        this.submitTo = mode == Sequencer.STATIC && self != initialHolder && faulty == null ? initialHolder : -1;
        this.order = new TotalOrder(self, size, mode, initialHolder, faulty == null ? this::send : faulty,
            (seq, origin, payload) -> delivery.deliver(seq, origin, payload), this::onTokenArrived);
    }

    /** Where delivered messages go, in sequence order, on the agent thread. Set before the node starts. */
    public void delivery(TotalOrder.Delivery d) {
        this.delivery = d;
    }

    /** Broadcasts {@code payload} to every node (this one included) in the total order. Any thread. */
    public void submit(byte[] payload) {
        if (submitTo < 0 || !submitNow(payload)) {
            order.submit(payload);
        }
    }

    /**
     * Static mode, on a node that does not stamp: the submitting thread offers its {@code SUBMIT} to the sequencer
     * itself instead of queueing it for the next full duty cycle, which a thread spinning hot runs only every few
     * cycles: one hand-off fewer on every write's path. A thread's submissions still reach the sequencer in its order,
     * since each submitter waits for its message's delivery before it submits again (a write's caller for its result,
     * a cloud's creator for its JOIN); one refused here (back-pressure, a message for the transport to chunk) goes on
     * from the duty cycle as before. Since the submitter waits for the sequencer to take it, it goes as an awaited
     * message ({@link OrderChannel#trySendAwaited}): no ring of the sequencer's main thread while the submitter serves
     * a call from the sequencer's node whose caller polls anyway. Any thread (Aeron's concurrent publications).
     */
    private boolean submitNow(byte[] payload) {
        int length = OrderFlyweight.submitLength(payload.length);
        if (left[submitTo] || length > channel.maxTrySendLength()) {
            return false;
        }
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[length]);
        new OrderFlyweight().wrap(buffer, 0).writeSubmit(self, payload);
        return channel.trySendAwaited(submitTo, buffer, 0, length); // its submitter waits for the stamp
    }

    /** Highest sequence number handed to the delivery. Any thread. */
    public long delivered() {
        return order.delivered();
    }

    public Sequencer mode() {
        return order.mode();
    }

    @Override
    public String roleName() {
        return "cumulus-order-" + self;
    }

    /** {@code peer} left the cluster normally (agent thread): nothing more is sent to it. */
    @Override
    public void peerLeft(int peer) {
        left[peer] = true;
        outboxes[peer].queue.clear();
    }

    /** The largest payload {@link #submit} accepts: the transport's message limit less the DATA header. */
    public int maxPayloadBytes() {
        return channel.maxMessageBytes() - 64;
    }

    @Override
    public int doWork() {
        int work = order.doWork();
        String[] failed;
        while ((failed = sendFailures.poll()) != null) {
            channel.fail(Integer.parseInt(failed[0]), failed[1]);
            work++;
        }
        if (faulty != null) {
            work += faulty.tick();
        }
        for (int dest = 0; dest < size; dest++) {
            if (!outboxes[dest].queue.isEmpty()) {
                work += drain(dest, System.nanoTime()); // the clock only when something waits to go out
            }
        }
        return work;
    }

    /** A message from the ORDER channel (agent thread). */
    @Override
    public void onMessage(int source, DirectBuffer buffer, int offset, int length) {
        OrderMessage m = OrderMessage.decode(orderIn.wrap(buffer, offset), length, size);
        if (m != null) {
            order.onMessage(source, m);
        }
    }

    private void onTokenArrived(int from, long nextSeq, int waitingCount) {
        SequencerMigrationEvent e = new SequencerMigrationEvent();
        if (e.shouldCommit()) {
            e.fromNode = from;
            e.toNode = self;
            e.nextSeq = nextSeq;
            e.waiting = waitingCount;
            e.reason = arrivalReason;
            e.commit();
        }
    }

    private void send(int dest, OrderMessage message) {
        if (left[dest]) {
            return;
        }
        int length = OrderMessage.encode(message, orderOut);
        Outbox box = outboxes[dest];
        if (box.queue.isEmpty() && !box.sendingBig && length <= channel.maxTrySendLength()
            && channel.trySend(dest, scratch, 0, length)) {
            return;
        }
        byte[] copy = new byte[length];
        scratch.getBytes(0, copy);
        if (box.queue.isEmpty()) {
            box.headSinceNs = System.nanoTime();
        }
        box.queue.add(copy);
    }

    private int drain(int dest, long now) {
        Outbox box = outboxes[dest];
        int work = 0;
        while (!box.queue.isEmpty() && !box.sendingBig) {
            byte[] head = box.queue.peek();
            if (head.length > channel.maxTrySendLength()) {
                box.sendingBig = true;
                box.queue.poll();
                bigSends.execute(() -> {
                    try {
                        channel.send(dest, new UnsafeBuffer(head), 0, head.length, stuckNs);
                    } catch (NodeFailedException e) {
                        // the destination failed: the membership reports it
                    } catch (RuntimeException e) {
                        if (!left[dest]) {
                            // a lost ordered message would stall every later delivery there: fail-stop, loudly
                            sendFailures.add(new String[] {Integer.toString(dest), "node " + self
                                + " could not send an ordered broadcast to node " + dest + ": " + e.getMessage()});
                        }
                    } finally {
                        box.sendingBig = false;
                    }
                });
                return work + 1;
            }
            if (!channel.trySend(dest, new UnsafeBuffer(head), 0, head.length)) {
                if (now - box.headSinceNs > stuckNs) {
                    box.queue.clear();
                    channel.fail(dest, "node " + dest + " took no ordered broadcast for "
                        + String.format(java.util.Locale.ROOT, "%.1f s", stuckNs / 1e9) + " (twice the heartbeat timeout)");
                }
                return work;
            }
            box.queue.poll();
            box.headSinceNs = now;
            work++;
        }
        return work;
    }

    @Override
    public void onClose() {
        bigSends.shutdownNow();
    }
}
