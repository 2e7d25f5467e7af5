package dev.cumulus.internal.service;

import dev.cumulus.internal.rpc.AccessRule;

/**
 * Administration of a standing cluster ({@code cumulus ps}, {@code cumulus migrate}, {@code cumulus kill}): every
 * server exports it when it serves clients. Only the administrator may call it: a client that attached as
 * {@link AccessRule#ADMIN} (with the cluster's admin credential, the admin's key) and whose every call carries
 * {@link ClientAdmission#adminProof} of its id under that credential, checked against the id the server admitted it
 * under; anything else is refused (other clients already at the server's door, {@link ClientCalls}).
 */
public interface ClusterAdmin {
    long OBJECT_ID = 13;

    /** This server's load and memory, its clients and the clients' objects it serves. */
    AdminStatus status(byte[] proof);

    /**
     * Client {@code client} is put out of this server: its calls are refused from now on and its objects here are
     * removed (as when it leaves).
     */
    void kill(byte[] proof, int client);

    /** Moves the client object {@code objectId}, served here, to server {@code node} (a delayed migration). */
    void migrate(byte[] proof, long objectId, int node);
}
