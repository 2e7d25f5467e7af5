package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

/**
 * What the RPC engine, the node's remote objects and its migrations ask of a standing cluster's server side (module
 * runtime/service, artifact {@value #ARTIFACT}) about the calls and objects of the cluster's clients: which calls of a
 * client may run, which principal calls, which client owns an object, and whose name space and output a client's
 * object uses. A node of an SPMD run serves no clients: {@link #NONE}.
 *
 * <p>Threads: {@link #admit} and {@link #counts} on the polling thread (never block); the rest on the threads that run
 * calls. Each default is what a node that serves no clients does.
 */
public interface ClientService {
    /** The Maven coordinates of the module that provides the standing cluster's service. */
    String ARTIFACT = "dev.cumulus:cumulus-service";

    /**
     * Why the call of method {@code methodId} of object {@code objectId} from client {@code client} may not run here,
     * or {@code null} when it may; then, when it {@link #counts}, it counts among the client's outstanding calls until
     * {@link #endCall}. Runs before anything of the call is decoded.
     */
    CumulusException admit(int client, long objectId, int methodId);

    /** Whether an admitted call of {@code objectId} counts among its client's outstanding calls. */
    default boolean counts(long objectId) {
        return false;
    }

    /** A counted call of {@code client} is answered, or has left this node. */
    default void endCall(int client) {
    }

    /** The principal client {@code client} attached as, or {@code null} when it has not attached. */
    default String principal(int client) {
        return null;
    }

    /** The object {@code objectId}, made for client {@code client}'s call under {@code name}, goes when it goes. */
    default void own(int client, long objectId, String name) {
    }

    /**
     * The current thread runs a call of {@code objectId}: if a client owns it, its output and remote I/O are the
     * client's until {@link #exit}. Returns what {@link #exit} restores.
     */
    default Object enter(long objectId) {
        return null;
    }

    /** The call {@link #enter} began is over: restores {@code prior}. */
    default void exit(Object prior) {
    }

    /** The class loader of client {@code client}'s classes here (its name space), made when first needed. */
    default ClassLoader loaderOf(int client) {
        throw new CumulusException("this node serves no clients, so it has no name space of client " + client);
    }

    /**
     * The current thread makes an object of class {@code className} for client {@code client} ({@code remoteNew}):
     * its constructor runs for its owner. Returns what {@link #made} and {@link #doneMaking} take.
     */
    default Object making(int client, String name, String className) {
        return null;
    }

    /** The object {@link #making} began is served as {@code objectId}. */
    default void made(Object making, long objectId) {
    }

    /** The constructor of the object {@link #making} began has returned or thrown. */
    default void doneMaking(Object making) {
    }

    /** The client that owns {@code objectId}, or -1 (the cluster's own, or no server). */
    default int ownerOf(long objectId) {
        return -1;
    }

    /** The object {@code objectId} moved to another server: it is no longer a client's object here. */
    default void movedAway(long objectId) {
    }

    /** The object {@code objectId} of client {@code owner} moved here. */
    default void movedHere(long objectId, int owner, String name, String className) {
    }

    /** A node of an SPMD run: it serves no clients and refuses their calls. */
    ClientService NONE = (client, objectId, methodId) -> new CumulusException("this node serves no clients: it is a "
        + "node of a run, not a server of a standing cluster");

    /**
     * Makes a server's client service once the node's engine and remote objects exist ({@code cumulus cluster start}'s
     * servers, runtime/service).
     */
    @FunctionalInterface
    interface Factory {
        ClientService serve(RpcEngine engine, RemoteObjects objects);
    }
}
