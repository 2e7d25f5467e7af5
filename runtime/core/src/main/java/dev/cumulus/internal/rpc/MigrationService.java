package dev.cumulus.internal.rpc;

import dev.cumulus.Migration;
import dev.cumulus.MigrationException;

/** The system object through which nodes move remote objects between them; every node serves one. */
public interface MigrationService {
    long OBJECT_ID = 6;

    /**
     * Where an object lives after a request: {@code here} when the node asked served it (and it now lives on
     * {@code node}); else the object had moved on from the node asked to {@code node}, where to ask next.
     */
    record Placement(int node, boolean here) {
    }

    /** On the node that holds (or held) the object: moves it to {@code toNode} as {@code kind} says. */
    @DefersReply
    Placement migrate(long objectId, int toNode, Migration kind) throws MigrationException;

    /**
     * On the node an object moves to: makes it from its class and state and serves it under its id; it goes on
     * following its calls if it did ({@code followsCalls}); this is its move number {@code moves}; {@code rule} who
     * may reach it, when a client of a standing cluster owns it (else null). Such a client, {@code owner} (its id,
     * or {@code -1} for none), has its objects' classes loaded in its name space, and its objects' output and remote
     * I/O go to it.
     */
    void receive(long objectId, String implClass, String interfaceName, String name, byte[] state,
                 boolean followsCalls, int moves, AccessRule rule, int owner) throws MigrationException;

    /**
     * On the node an object moved to, once it moved: the calls that waited for the move at its former node
     * ({@code calls[i]} from node {@code sources[i]}, which sent it to node {@code sentTo[i]}; in arrival order) run
     * first; then the object serves every call (until then they wait here).
     */
    void release(long objectId, int[] sentTo, int[] sources, byte[][] calls) throws MigrationException;

    /** On the node that holds (or held) the object: from now on it moves to the node that makes most of its calls. */
    Placement followCalls(long objectId) throws MigrationException;
}
