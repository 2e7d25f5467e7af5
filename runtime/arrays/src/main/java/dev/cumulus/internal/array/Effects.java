package dev.cumulus.internal.array;

import java.util.ArrayList;
import java.util.List;

/**
 * What a protocol step wants done once its lock is released: messages to send and operations to complete. Protocol
 * code never sends or wakes anyone while holding a partition's lock.
 */
final class Effects {
    record Send(int node, CoherenceMessage message) {
    }

    final List<Send> sends = new ArrayList<>(4);
    final List<Op> completed = new ArrayList<>(2);

    void send(int node, CoherenceMessage message) {
        sends.add(new Send(node, message));
    }

    void complete(Op op) {
        completed.add(op);
    }
}
