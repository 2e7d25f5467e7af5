package dev.cumulus.array;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Test support: messages in flight between simulated nodes, delivered one at a time in an order the test picks
 * (FIFO, or random to reorder), with a log of everything delivered.
 *
 * @param <M> message type
 */
final class SimulatedNetwork<M> {
    record InFlight<M>(int from, int to, M message) {
    }

    private final List<InFlight<M>> inFlight = new ArrayList<>();
    private final List<InFlight<M>> delivered = new ArrayList<>();

    void send(int from, int to, M message) {
        inFlight.add(new InFlight<>(from, to, message));
    }

    boolean idle() {
        return inFlight.isEmpty();
    }

    int pending() {
        return inFlight.size();
    }

    List<InFlight<M>> inFlight() {
        return List.copyOf(inFlight);
    }

    /** Takes the oldest message (FIFO). */
    InFlight<M> next() {
        InFlight<M> m = inFlight.removeFirst();
        delivered.add(m);
        return m;
    }

    /** Takes a random message (any order). */
    InFlight<M> next(SplittableRandom random) {
        InFlight<M> m = inFlight.remove(random.nextInt(inFlight.size()));
        delivered.add(m);
        return m;
    }

    /** Takes a message the test names. */
    InFlight<M> take(InFlight<M> m) {
        if (!inFlight.remove(m)) {
            throw new AssertionError("not in flight: " + m);
        }
        delivered.add(m);
        return m;
    }

    List<InFlight<M>> delivered() {
        return delivered;
    }

    void clearLog() {
        delivered.clear();
    }
}
