package dev.cumulus.internal.array;

import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.rpc.Brief;

/**
 * What one node's shared-array runtime offers the others over RPC (system object {@code NodeServices.ARRAYS_ID}).
 * Calls run where the RPC layer runs them (docs/design/THREADING.md); {@link #deliver} is {@link Brief}: it never
 * blocks and runs on the thread that polled it. Public only because RPC proxies need it; not user API.
 */
public interface ArrayService {
    /**
     * One coherence message in its compact wire form ({@code CoherenceWire}), sent one-way as a {@code byte[]} and
     * received as a view of the call's bytes, so a grant's partition is copied once, from the message into the cache.
     */
    @Brief
    void deliver(BytesView message);

    /**
     * Registry (the node {@code name} hashes to): records {@code spec} unless the name is taken, and returns the
     * registered spec; throws if {@code spec} differs from it.
     */
    ArraySpec register(ArraySpec spec, int node);

    /** Registry: the registered spec of {@code name} (waits briefly for a registration on its way), or fails. */
    ArraySpec spec(String name);

    /** Barrier root: node {@code node} takes part in barrier {@code name} with {@code threads} threads. */
    void barrierJoin(String name, int node, int threads, boolean tree);

    /**
     * Barrier root: {@code weight} threads of {@code node} arrived (all of a node's in tree mode, one in centralized
     * mode); returns the released generation once every member has arrived, or throws naming who is missing after
     * {@code timeoutNs}.
     */
    long barrierArrive(String name, int node, int weight, long timeoutNs);

    /** Scalar home: one atomic operation on shared scalar {@code name}; values are raw long bits. */
    long scalar(String name, boolean isDouble, int op, long a, long b);
}
