package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.transport.NodeTransport;

import java.util.ArrayList;
import java.util.List;

/**
 * The administrator's connection to a standing cluster ({@code cumulus ps}, {@code migrate}, {@code kill}): a client
 * that attaches as {@link AccessRule#ADMIN} with the admin credential from the cluster's owner-only state file (the
 * admin's key, as {@code cumulus cluster grant NAME admin} writes it) and asks each server's {@link ClusterAdmin},
 * proving the credential with every call. Its own client does not show among the clients.
 */
public final class ClusterAdministration implements AutoCloseable {
    private final ClientNode client;
    private final ClientSlot slot;
    private final byte[] proof;
    private final List<Long> serverPids;

    private ClusterAdministration(ClientNode client, ClientSlot slot, byte[] proof, List<Long> serverPids) {
        this.client = client;
        this.slot = slot;
        this.proof = proof;
        this.serverPids = serverPids;
    }

    /**
     * Connects to the standing cluster {@code name} of this user on this host as its administrator.
     *
     * @throws CumulusException when there is no such cluster, it does not serve, or it refuses the credential
     */
    public static ClusterAdministration connect(String name) {
        StandingClusterFile file = StandingClusterFile.read(name);
        ClientSlot slot = ClientSlot.take(file.clusterDir(), NodeTransport.CLIENT_SLOTS, name);
        try {
            byte[] adminKey = ClientAdmission.clientKey(file.credential(), AccessRule.ADMIN);
            ClientNode node = ClientCluster.connectNode(file, slot, AccessRule.ADMIN, adminKey);
            return new ClusterAdministration(node, slot, ClientAdmission.adminProof(adminKey, node.clientId()),
                file.serverPids());
        } catch (RuntimeException | Error e) {
            slot.close();
            throw e;
        }
    }

    /** Number of servers. */
    public int servers() {
        return client.servers();
    }

    /** The status of every server that serves (not gone), by server. */
    public List<AdminStatus> status() {
        List<AdminStatus> all = new ArrayList<>();
        for (int server = 0; server < client.servers(); server++) {
            if (!gone(server)) {
                all.add(admin(server).status(proof));
            }
        }
        return all;
    }

    /** The servers that are gone (their processes ended; the others serve on), by server. */
    public List<Integer> goneServers() {
        List<Integer> gone = new ArrayList<>();
        for (int server = 0; server < client.servers(); server++) {
            if (gone(server)) {
                gone.add(server);
            }
        }
        return gone;
    }

    /** The process of server {@code server}, as the cluster's state file records it. */
    public long serverPid(int server) {
        return serverPids.get(server);
    }

    private boolean gone(int server) {
        return client.goneReason(server) != null;
    }

    /** Puts client {@code clientId} out of every server that serves: its calls are refused and its objects removed. */
    public void kill(int clientId) {
        for (int server = 0; server < client.servers(); server++) {
            if (!gone(server)) {
                admin(server).kill(proof, clientId);
            }
        }
    }

    /**
     * Moves object {@code objectId}, served by {@code server}, to server {@code toServer}.
     *
     * @throws CumulusException when {@code toServer} is gone
     */
    public void migrate(long objectId, int server, int toServer) {
        if (gone(toServer)) {
            throw new CumulusException("server " + toServer + " is gone: " + client.goneReason(toServer)
                + "; move the object to a server that serves ('cumulus ps' lists them)");
        }
        admin(server).migrate(proof, objectId, toServer);
    }

    private ClusterAdmin admin(int server) {
        return client.systemObject(server, ClusterAdmin.OBJECT_ID, ClusterAdmin.class);
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            slot.close();
        }
    }
}
