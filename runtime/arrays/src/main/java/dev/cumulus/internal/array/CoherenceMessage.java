package dev.cumulus.internal.array;

import dev.cumulus.array.CacheState;

/**
 * The messages of the directory-based coherence protocol (docs/design/COHERENCE.md). Requests and replies between a
 * node's cache and a partition's home directory; every message names the array and partition. Messages may be
 * delivered in any order: {@code seq} ties invalidations and forwards to the grant they revoke, and a node defers
 * them until it has installed that grant. Public only for the RPC codec.
 */
public sealed interface CoherenceMessage {
    String array();

    int partition();

    /** Cache to home: I have no copy and want a shared one. */
    record ReadRequest(String array, int partition, int from) implements CoherenceMessage {
    }

    /** Cache to home: I want exclusive ownership (I may hold a shared copy). */
    record WriteRequest(String array, int partition, int from) implements CoherenceMessage {
    }

    /**
     * Home to owner (intervention forwarding): give up your exclusive copy from grant {@code seq} — keep a shared
     * copy for {@code READ}, invalidate it for {@code WRITE} — and send the data to the home.
     */
    record Forward(String array, int partition, Access access, long seq, int requester) implements CoherenceMessage {
    }

    /** Owner to home: the partition's latest data, in answer to a {@link Forward}. */
    record ForwardReply(String array, int partition, int from, Access access, Object data) implements CoherenceMessage {
    }

    /** Home to sharer: invalidate your shared copy from grant {@code seq}. */
    record Invalidate(String array, int partition, long seq) implements CoherenceMessage {
    }

    /** Sharer to home: done. */
    record InvalidateAck(String array, int partition, int from) implements CoherenceMessage {
    }

    /**
     * Home to requester: your copy is now {@code state} as of grant {@code seq}; {@code data} is null when the
     * requester's shared copy is still valid (an upgrade). {@code hops} counts the transactions of the miss.
     */
    record Grant(String array, int partition, CacheState state, long seq, Object data, int hops)
        implements CoherenceMessage {
    }
}
