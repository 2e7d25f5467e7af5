package dev.cumulus.internal.service;

import dev.cumulus.internal.rpc.Brief;

/**
 * Where a client of a standing cluster attaches to a server: the one system object a client may call before it is
 * admitted. Every server exports it when it serves clients ({@link ServedClients}).
 */
public interface ClientGate {
    long OBJECT_ID = 8;
    /** The most bytes of a client's profile one {@link #profiled} call returns. */
    int PROFILE_CHUNK_BYTES = 1 << 20;

    /**
     * Admits the calling client as {@code principal}, the name its credential was granted under: {@code proof} is
     * {@link ClientAdmission#proof} of the client's id and principal under its key; {@code pid} is its process on this
     * host, watched: when it ends the client is gone.
     *
     * @throws dev.cumulus.AccessDeniedException when the proof does not match (a wrong or old credential)
     */
    @Brief
    void attach(int client, long pid, String principal, byte[] proof);

    /**
     * {@link #attach} of a client that receives over UDP (servers on several hosts): its frames come to
     * {@code endpoint} ({@code host:port}) from now on, sealed for the session that {@code nonce} and the client's
     * key make ({@link ClientAdmission#session}); {@code host} is its host's identity
     * ({@link ClientAdmission#hostIdentity}): its {@code pid} is watched only on a server of the same host.
     *
     * @throws dev.cumulus.AccessDeniedException when the proof does not match (a wrong or old credential)
     */
    @Brief
    void attachRemote(int client, long pid, String principal, byte[] proof, String endpoint, byte[] nonce, String host);

    /**
     * The calling client is still there: a client that attached over UDP ({@link #attachRemote}) says so to every
     * server once a {@link ClientAdmission#LEASE_INTERVAL_NS}; a server that cannot watch its process (another host)
     * and has not heard it for {@link ClientAdmission#LEASE_TIMEOUT_NS} removes it as if it had detached.
     */
    @Brief
    void alive(int client);

    /**
     * The client leaves (a client detaches only itself; the admin any): its calls are refused from now on, and the objects it made here are removed (and their names
     * unbound) before this returns. Not brief: it calls the name service.
     */
    void detach(int client);

    /**
     * Starts the calling client's profile window here ({@code cumulus run --attach NAME --profile}): from now on this
     * server records the calls the client makes and the calls to, and moves of, the objects it makes here. Not brief:
     * the first window starts a recording.
     */
    void profile(int client);

    /**
     * Up to {@link #PROFILE_CHUNK_BYTES} of the calling client's profile from {@code offset}: a JFR file of its
     * window's events that are its own; a shorter chunk is the last. Call before {@link #detach}, which ends the
     * window.
     */
    byte[] profiled(int client, int offset);
}
