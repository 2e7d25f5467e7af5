package dev.cumulus.internal.cloud;

import dev.cumulus.internal.node.NodeSettings.Sequencer;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * One node's side of the totally ordered broadcast: a sequencer token that stamps messages with consecutive numbers,
 * and a reorder buffer that delivers them in number order. By default the token migrates to the node that
 * broadcasts (Manta §5.2); in static mode it stays on one node, which stamps what the others submit.
 *
 * <p>Why nothing is lost, duplicated or reordered (one token carrying the next number; reliable streams, fail-stop;
 * number k delivered after k-1; requests queued at the holder or forwarded after the token, which carries the queue):
 * docs/design/SEQUENCER.md.
 *
 * <p>Threads: {@link #submit} from any thread; everything else on the node's agent thread. Pure: the network and
 * the delivery are interfaces, so tests drive it with a simulated network that delays and reorders.
 */
public final class TotalOrder {
    /** Sends a message to one node; reliable; messages to one node arrive in the order sent. */
    @FunctionalInterface
    public interface Network {
        void send(int destination, OrderMessage message);
    }

    /** Receives messages in sequence order (agent thread; must not block). */
    @FunctionalInterface
    public interface Delivery {
        void deliver(long seq, int origin, byte[] payload);
    }

    /** Told when the token arrives here: from which node, at which sequence number. */
    @FunctionalInterface
    public interface MigrationListener {
        void onTokenArrived(int from, long nextSeq, int waitingCount);
    }

    private final int self;
    private final int size;
    private final Sequencer mode;
    private final Network network;
    private final Delivery delivery;
    private final MigrationListener migrations;
    private final ManyToOneConcurrentLinkedQueue<byte[]> submissions = new ManyToOneConcurrentLinkedQueue<>();
    private final ArrayDeque<byte[]> unstamped = new ArrayDeque<>();
    private final ArrayDeque<Integer> waiting = new ArrayDeque<>();
    private final Map<Long, OrderMessage.Data> early = new HashMap<>();
    private boolean holding;
    private boolean requested;
    private long nextSeq;
    private int towardsHolder;
    private long hintSeq = -1;
    private long nextToDeliver;
    private volatile long delivered = -1;

    /**
     * @param initialHolder the node that holds the token at start (the static sequencer in static mode)
     */
    public TotalOrder(int self, int size, Sequencer mode, int initialHolder, Network network, Delivery delivery,
                      MigrationListener migrations) {
        this.self = self;
        this.size = size;
        this.mode = mode;
        this.network = network;
        this.delivery = delivery;
        this.migrations = migrations;
        this.holding = self == initialHolder;
        this.towardsHolder = initialHolder;
    }

    /** Queues {@code payload} for broadcast to every node, this one included. Any thread. */
    public void submit(byte[] payload) {
        submissions.offer(payload);
    }

    /** Highest sequence number delivered here ({@code -1} before the first). Any thread. */
    public long delivered() {
        return delivered;
    }

    /** True while this node holds the token. Agent thread. */
    public boolean holding() {
        return holding;
    }

    public Sequencer mode() {
        return mode;
    }

    /** Stamps or forwards what was submitted, and passes the token on when others wait for it. Agent thread. */
    public int doWork() {
        int work = 0;
        byte[] p;
        while ((p = submissions.poll()) != null) {
            unstamped.add(p);
            work++;
        }
        if (!unstamped.isEmpty()) {
            if (holding) {
                work += stampAll();
            } else if (mode == Sequencer.STATIC) {
                while ((p = unstamped.poll()) != null) {
                    network.send(towardsHolder, new OrderMessage.Submit(self, p));
                    work++;
                }
            } else if (!requested) {
                requested = true;
                network.send(towardsHolder, new OrderMessage.Request(self));
                work++;
            }
        }
        if (holding && mode == Sequencer.MIGRATING && unstamped.isEmpty() && !waiting.isEmpty()) {
            passToken();
            work++;
        }
        return work;
    }

    /** A message of the broadcast protocol from {@code source}. Agent thread. */
    public void onMessage(int source, OrderMessage message) {
        switch (message) {
            case OrderMessage.Data d -> {
                if (!holding && d.seq() > hintSeq) {
                    hintSeq = d.seq();
                    towardsHolder = source;
                }
                accept(d);
            }
            case OrderMessage.Request r -> {
                if (holding) {
                    if (r.requester() != self && !waiting.contains(r.requester())) {
                        waiting.add(r.requester());
                    }
                } else if (r.requester() != self || requested) {
                    network.send(towardsHolder, r);
                }
            }
            case OrderMessage.Token t -> {
                holding = true;
                requested = false;
                nextSeq = t.nextSeq();
                for (int w : t.waiting()) {
                    if (w != self && !waiting.contains(w)) {
                        waiting.add(w);
                    }
                }
                migrations.onTokenArrived(source, nextSeq, waiting.size());
            }
            case OrderMessage.Submit s -> {
                if (holding) {
                    stamp(s.origin(), s.payload());
                } else {
                    network.send(towardsHolder, s);
                }
            }
        }
    }

    private int stampAll() {
        int n = 0;
        byte[] p;
        while ((p = unstamped.poll()) != null) {
            stamp(self, p);
            n++;
        }
        return n;
    }

    private void stamp(int origin, byte[] payload) {
        OrderMessage.Data d = new OrderMessage.Data(nextSeq++, origin, payload);
        for (int node = 0; node < size; node++) {
            if (node != self) {
                network.send(node, d);
            }
        }
        accept(d);
    }

    private void passToken() {
        int next = waiting.poll();
        int[] rest = waiting.stream().mapToInt(Integer::intValue).toArray();
        waiting.clear();
        holding = false;
        towardsHolder = next;
        network.send(next, new OrderMessage.Token(nextSeq, rest));
    }

    private void accept(OrderMessage.Data d) {
        if (d.seq() < nextToDeliver) {
            return; // already delivered: cannot happen on reliable streams; ignore rather than deliver twice
        }
        early.put(d.seq(), d);
        OrderMessage.Data next;
        while ((next = early.remove(nextToDeliver)) != null) {
            delivery.deliver(next.seq(), next.origin(), next.payload());
            delivered = nextToDeliver;
            nextToDeliver++;
        }
    }

    /** Messages waiting for an earlier number (for tests and diagnostics). */
    int earlyCount() {
        return early.size();
    }
}
