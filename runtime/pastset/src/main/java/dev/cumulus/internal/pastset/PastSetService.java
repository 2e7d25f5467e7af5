package dev.cumulus.internal.pastset;

import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.rpc.Brief;
import dev.cumulus.internal.rpc.DefersReply;

import java.util.List;

/**
 * What one node's PastSet server offers the others over RPC (system object {@code NodeServices.PASTSET_ID}). The
 * {@link Brief} methods never block (a move or observe that must wait is parked with its reply deferred), so the
 * thread that polled their call runs them; the others run where the RPC layer runs calls
 * (docs/design/THREADING.md) and may block on the element's condition.
 * Elements are named by their space key ({@code placement/templateKey}); a home node creates an element's state on
 * the first call that names it. Public only because RPC proxies need it; not user API.
 *
 * <p>{@code seq}: a move or observe's number in its caller node's ordered operations on the element (from 0, one
 * counter per element and caller node, in the order the node sent them), which the home runs in that order; -1 for
 * one that needs no place in it (the caller has no asynchronous move on the element in flight).
 */
public interface PastSetService {
    /**
     * Appends an encoded tuple (waits parked, its reply deferred, under flow control). The tuple is sent as a
     * {@code byte[]} (written into the call straight from the mover's encoding) and received as a view of the call
     * message, which the log keeps.
     */
    @Brief
    @DefersReply
    MoveReply move(String element, int node, long thread, long seq, BytesView tuple);

    /**
     * {@link #move} for a {@code moveAsync}: the same, answering only the tuple's index, so that the caller's future
     * completes with the reply as it comes (no stage maps it: the polling thread that polls the reply completes it).
     */
    @Brief
    @DefersReply
    Long moveForIndex(String element, int node, long thread, long seq, BytesView tuple);

    /**
     * The element's oldest unobserved tuple, marked observed (waits parked, its reply deferred, until there is one), as
     * an {@code Observed} reply.
     */
    @Brief
    @DefersReply
    byte[] observe(String element, int node, long thread, long seq);

    /**
     * The tuple at {@code index} (blocks until it exists; fails if truncated), as an {@code Observed} reply (sent
     * through the deferred reply, which writes the tuple into the reply message without an array of its own).
     */
    @DefersReply
    byte[] observeAt(String element, long index);

    /** {first, last, delta}. */
    @Brief
    long[] pointers(String element);

    @Brief
    void delta(String element, long k);

    @Brief
    void truncate(String element, long index);

    /** Installs a redefinition; {@code className} empty restores the standard semantics. */
    void redefine(String element, String tag, List<String> typeNames, String className, List<String> params);

    /**
     * First-touch directory: records {@code node} as the home of {@code element} unless one is recorded already.
     *
     * @return the element's home (the earliest claim)
     */
    @Brief
    int claim(String element, int node);
}
