package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;
import dev.cumulus.array.Distribution;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * Test support: several nodes' coherence state for one {@code long} array with no transport, for protocol tests on a
 * simulated network (the test decides when each message is delivered).
 */
public final class ProtocolHarness {
    /** A message leaving {@code from} for {@code to}. */
    public record Envelope(int from, int to, CoherenceMessage message) {
    }

    /** An access issued by a test: completes when its body ran on the node's copy. */
    public static final class Issued {
        final Op op;

        Issued(Op op) {
            this.op = op;
        }

        public boolean done() {
            return op.future.isDone();
        }

        public long value() {
            return (Long) op.future.join();
        }

        public int hops() {
            return op.hops;
        }
    }

    private final ArrayCoherence[] nodes;
    private final BiConsumer<Envelope, Object> sink;
    private final String name;

    /**
     * @param partitions number of one-element partitions (one row)
     * @param sink       receives every message sent (the test's network); the second argument is unused
     */
    public ProtocolHarness(String name, int nodeCount, int partitions, boolean cyclic, BiConsumer<Envelope, Object> sink) {
        this.name = name;
        this.sink = sink;
        ArraySpec spec = new ArraySpec(name, ElementKind.LONG, 1, partitions, 1, 1,
            cyclic ? Distribution.BLOCK_CYCLIC : Distribution.BLOCK).validate();
        Geometry g = new Geometry(spec, nodeCount);
        this.nodes = new ArrayCoherence[nodeCount];
        long[] clock = {0};
        for (int n = 0; n < nodeCount; n++) {
            nodes[n] = new ArrayCoherence(g, n, () -> clock[0]++, HomeDirectory.Observer.NONE);
        }
    }

    public int home(int partition) {
        return nodes[0].geometry.home(partition);
    }

    /** Node {@code node} reads the partition's element; {@code onRun} sees the value when the body runs. */
    public Issued read(int node, int partition, LongConsumer onRun) {
        Op op = new Op(Access.READ, data -> {
            long v = ((long[]) data)[0];
            onRun.accept(v);
            return v;
        }, 0);
        return issue(node, partition, op);
    }

    /** Node {@code node} writes {@code value}; {@code onRun} runs when the write happens. */
    public Issued write(int node, int partition, long value, Runnable onRun) {
        Op op = new Op(Access.WRITE, data -> {
            ((long[]) data)[0] = value;
            onRun.run();
            return value;
        }, 0);
        return issue(node, partition, op);
    }

    private Issued issue(int node, int partition, Op op) {
        Effects fx = new Effects();
        nodes[node].entries[partition].access(op, fx);
        flush(node, fx);
        return new Issued(op);
    }

    /** Delivers one message to its destination. */
    public void deliver(Envelope e) {
        Effects fx = new Effects();
        nodes[e.to()].handle(copyData(e.message(), e.from() != e.to()), fx);
        flush(e.to(), fx);
    }

    private void flush(int from, Effects fx) {
        for (Op op : fx.completed) {
            op.finish();
        }
        for (Effects.Send s : fx.sends) {
            sink.accept(new Envelope(from, s.node(), s.message()), null);
        }
    }

    /** Crossing nodes copies data, as serialization would. */
    private static CoherenceMessage copyData(CoherenceMessage m, boolean remote) {
        if (!remote) {
            return m;
        }
        return switch (m) {
            case CoherenceMessage.Grant g when g.data() != null ->
                new CoherenceMessage.Grant(g.array(), g.partition(), g.state(), g.seq(), ((long[]) g.data()).clone(),
                    g.hops());
            case CoherenceMessage.ForwardReply r when r.data() != null ->
                new CoherenceMessage.ForwardReply(r.array(), r.partition(), r.from(), r.access(),
                    ((long[]) r.data()).clone());
            default -> m;
        };
    }

    public CacheState state(int node, int partition) {
        return nodes[node].entries[partition].stateNow();
    }

    /** The value in {@code node}'s copy, or null when it holds none. */
    public Long copyValue(int node, int partition) {
        CacheEntry e = nodes[node].entries[partition];
        synchronized (e) {
            return e.state() == CacheState.INVALID ? null : ((long[]) e.data())[0];
        }
    }

    public int waiting(int node, int partition) {
        return nodes[node].entries[partition].waiting();
    }

    public boolean requestPending(int node, int partition) {
        return nodes[node].entries[partition].pending() != null;
    }

    public int queuedAtHome(int partition) {
        return nodes[home(partition)].directories[partition].queued();
    }

    public String directoryPhase(int partition) {
        return nodes[home(partition)].directories[partition].phase().name();
    }

    public String directoryState(int partition) {
        return nodes[home(partition)].directories[partition].state().name();
    }

    public int owner(int partition) {
        return nodes[home(partition)].directories[partition].owner();
    }

    public List<Integer> sharers(int partition) {
        List<Integer> out = new ArrayList<>();
        BitSet b = nodes[home(partition)].directories[partition].sharers();
        b.stream().forEach(out::add);
        return out;
    }

    public String name() {
        return name;
    }
}
