package dev.cumulus.internal.pastset;

import dev.cumulus.internal.rpc.DefersReply;

import java.util.List;

/**
 * What one node's PastSet server offers the others over RPC (system object {@code NodeServices.PASTSET_ID}). Calls
 * run where the RPC layer runs them (docs/design/THREADING.md); {@link #move} may block on the element's condition.
 * Elements are named by their space key ({@code placement/templateKey}); a home node creates an element's state on
 * the first call that names it. Public only because RPC proxies need it; not user API.
 */
public interface PastSetService {
    /** Appends an encoded tuple (blocks under flow control). */
    MoveReply move(String element, int node, long thread, byte[] tuple);

    /** The element's oldest unobserved tuple, marked observed (blocks until there is one). */
    @DefersReply
    Observed observe(String element, int node, long thread);

    /** The tuple at {@code index} (blocks until it exists; fails if truncated). */
    Observed observeAt(String element, long index);

    /** {first, last, delta}. */
    long[] pointers(String element);

    void delta(String element, long k);

    void truncate(String element, long index);

    /** Installs a redefinition; {@code className} empty restores the standard semantics. */
    void redefine(String element, String tag, List<String> typeNames, String className, List<String> params);

    /**
     * First-touch directory: records {@code node} as the home of {@code element} unless one is recorded already.
     *
     * @return the element's home (the earliest claim)
     */
    int claim(String element, int node);
}
