package dev.cumulus;

import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.array.SharedFloatArray;
import dev.cumulus.array.SharedIntArray;
import dev.cumulus.array.SharedLongArray;
import dev.cumulus.internal.capability.ClusterConnector;
import dev.cumulus.internal.capability.LaunchedJoin;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * One node's view of a running cluster. Programs are SPMD: every node runs the same {@code main}.
 *
 * <pre>{@code
 * try (Cluster cluster = Cluster.join()) {      // inside a node started by `cumulus run`
 *     int me = cluster.nodeId(), n = cluster.size();
 *     cluster.barrier();
 * }
 * }</pre>
 *
 * In tests, {@link LocalCluster#run(int, LocalCluster.NodeBody)} runs n nodes as threads of one JVM over the same
 * protocol code.
 */
public interface Cluster extends AutoCloseable {

    /**
     * Joins the cluster this process was started in by {@code cumulus run}; returns when every node has joined.
     *
     * @throws CumulusException if this process was not started by {@code cumulus run}, or the other nodes do not
     *                          appear within the join timeout
     */
    static Cluster join() {
        return LaunchedJoin.find().join();
    }

    /**
     * Connects to the standing cluster {@code name} ({@code cumulus cluster start NAME}) of this user on this host as
     * a client, with the credential its admin granted ({@code cumulus cluster grant NAME CLIENT}): the file named by
     * {@code -Dcumulus.credential} ({@code cumulus run --attach NAME --credential FILE} sets it), else by
     * {@code $CUMULUS_CREDENTIAL}, else {@code credentials/NAME/USER.credential} in the configuration directory
     * ({@code cluster start} grants its user one there). The client is the principal its credential names: what it
     * makes is its own, and others reach it only as it grants ({@link Access}). The client's view has the remote-object
     * API of a node — {@code remoteNew}, {@code export}, {@code lookup}, {@link AsyncTicket} — with {@link #size()}
     * the number of servers. The client is no node of the cluster, but its program is one process: {@link #nodeId()}
     * is 0 and {@link #barrier()} returns at once, so a program whose node 0 drives the work runs unchanged as a
     * client; the other collective capabilities (named barriers, clouds, shared arrays, the tuple space) throw. Under
     * {@code cumulus run --attach NAME}, {@link #join()} does the same. {@link #close()} detaches.
     *
     * @throws CumulusException when there is no such cluster or it no longer serves, or the standing cluster's module,
     *                          {@code dev.cumulus:cumulus-service}, is not on the class path
     * @throws AccessDeniedException when there is no credential, or the cluster refuses it
     */
    static Cluster connect(String name) {
        return ClusterConnector.find().connect(name);
    }

    /** This node's id, 0 to {@code size() - 1}. */
    int nodeId();

    /** Number of nodes in the cluster. */
    int size();

    /** Global barrier: returns once every node has entered it. */
    void barrier();

    /**
     * Makes {@code object} callable from every node under {@code name} through interface {@code iface}. Returns a
     * proxy for it. A call through any proxy — this one, one from {@code lookup} or {@code remoteNew}, or one received
     * in a call — means the same wherever the object lives: its arguments and its result are copied by value (a
     * callee that changes an argument never changes the caller's object), and its exceptions arrive as copies too.
     * On the object's own node the call skips the transport, not the copy. Call the object itself, not the proxy, to
     * share objects by reference.
     *
     * @throws CumulusException if the name is already taken in this cluster
     */
    <T> T export(T object, Class<T> iface, String name);

    /**
     * {@link #export(Object, Class, String)} for a client of a standing cluster that lets others reach the object:
     * the object belongs to this client, and other clients may look it up and call it as {@code access} grants
     * ({@link Access#owner()} is the default). Inside an SPMD run there are no clients and the grant changes nothing.
     *
     * @throws CumulusException if the name is already taken in this cluster
     */
    default <T> T export(T object, Class<T> iface, String name, Access access) {
        if (access == null) {
            throw new CumulusException("export of '" + name + "' needs an Access (Access.owner() is the default)");
        }
        return export(object, iface, name);
    }

    /**
     * Finds the object exported under {@code name} on any node; waits up to the lookup timeout for the name to
     * appear (an SPMD program's export on another node may still be on its way).
     *
     * @throws CumulusException naming the missing name when it does not appear in time
     */
    <T> T lookup(String name, Class<T> iface);

    /** Like {@link #lookup(String, Class)} with an explicit wait. */
    <T> T lookup(String name, Class<T> iface, Duration wait);

    /**
     * Creates an instance of {@code impl} (no-argument constructor) on node {@code node}, exports it under
     * {@code name}, and returns a proxy for it.
     */
    <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node);

    /**
     * {@link #remoteNew(Class, Class, String, int)} for a client of a standing cluster that lets others reach the
     * object: it belongs to this client, and other clients may look it up and call it as {@code access} grants
     * ({@link Access#owner()} is the default). Inside an SPMD run there are no clients and the grant changes nothing.
     */
    default <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node, Access access) {
        if (access == null) {
            throw new CumulusException("remoteNew of '" + name + "' needs an Access (Access.owner() is the default)");
        }
        return remoteNew(impl, iface, name, node);
    }

    /** {@link #remoteNew(Class, Class, String, int)} on the next node after this one (round robin). */
    <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name);

    /**
     * The PastSet structured tuple space with the default placement, first touch (an element lives on the node that
     * entered it first). Every call returns the same space; see {@link dev.cumulus.pastset.PastSet}.
     */
    PastSet pastSet();

    /**
     * The PastSet space whose elements are placed by {@code placement} (central, round robin or first touch). Each
     * placement is its own space: the same template in two of them names two different elements.
     */
    PastSet pastSet(Placement placement);

    /**
     * Collective: every node calls it with the same name and gets its own replica of the same cloud (Manta §2).
     * {@code factory} creates this node's replica and must give every node the same initial state. Read methods of
     * the root run on the local replica; write methods are shipped through a totally ordered broadcast and run on
     * every replica, in the same order everywhere; the call returns when the local replica has applied it, with
     * this replica's result. Returns once every node has created its replica.
     *
     * @throws CumulusException if the name is used for another class on some node, or the cloud classes cannot be
     *                          woven (the Cumulus agent is missing)
     */
    <T extends Cloud.Root> T replicated(String name, Supplier<T> factory);

    // ---------------------------------------------------------------- shared arrays (DSA), barriers, scalars

    /**
     * Collective: every node calls it with the same name and shape and gets its own view of the same shared
     * {@code double} array, split into partitions (the unit of caching and coherence) with home nodes as
     * {@code shape} says. Elements start at 0. Calling it again on a node returns the same view. See
     * {@link dev.cumulus.array.SharedArray} for consistency and indices.
     *
     * <pre>{@code
     * SharedDoubleArray a = cluster.sharedDoubleArray("A", ArrayShape.of(rows, cols).blocks(32, 32));
     * SharedDoubleArray x = cluster.sharedDoubleArray("x", ArrayShape.of(n));   // one row, one band per node
     * }</pre>
     *
     * @throws NullPointerException     if {@code name} or {@code shape} is null
     * @throws IllegalArgumentException if {@code name} is empty or longer than 4096 bytes in UTF-8
     * @throws CumulusException         if another node created the name with another element type or shape
     */
    SharedDoubleArray sharedDoubleArray(String name, ArrayShape shape);

    /** Like {@link #sharedDoubleArray(String, dev.cumulus.array.ArrayShape)}, of {@code float}. */
    SharedFloatArray sharedFloatArray(String name, ArrayShape shape);

    /** Like {@link #sharedDoubleArray(String, dev.cumulus.array.ArrayShape)}, of {@code long}. */
    SharedLongArray sharedLongArray(String name, ArrayShape shape);

    /** Like {@link #sharedDoubleArray(String, dev.cumulus.array.ArrayShape)}, of {@code int}. */
    SharedIntArray sharedIntArray(String name, ArrayShape shape);

    /**
     * Collective: a named cluster barrier whose members are {@code localThreads} threads of this node (0 for none, but
     * every node must call it). See {@link Barrier}.
     *
     * @throws NullPointerException     if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is empty or {@code localThreads} negative
     * @throws CumulusException         if this node already created the name with another thread count
     */
    Barrier barrier(String name, int localThreads);

    /** {@link #barrier(String, int)} with one member thread per node. */
    default Barrier barrier(String name) {
        return barrier(name, 1);
    }

    /**
     * A named barrier for {@code threads} threads of this node only (no messages).
     *
     * @throws IllegalArgumentException if {@code threads < 1} or {@code name} is empty
     */
    Barrier localBarrier(String name, int threads);

    /** Collective: the shared {@code long} named {@code name} (0 at first), held on one home node. */
    SharedLong sharedLong(String name);

    /** Collective: the shared {@code double} named {@code name} (0 at first), held on one home node. */
    SharedDouble sharedDouble(String name);

    /** Leaves the cluster: a final barrier with the other nodes, then transport shutdown. */
    @Override
    void close();
}
