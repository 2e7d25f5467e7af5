package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.service.ClusterAdministration;

import java.io.PrintStream;

/**
 * What {@code cumulus ps}, {@code cumulus migrate} and {@code cumulus kill} do: each connects to the standing cluster
 * as its administrator ({@link ClusterAdministration}, with the admin credential from the cluster's owner-only state
 * file), asks the servers, and leaves.
 */
public final class AdminActions {
    private AdminActions() {
    }

    /** The cluster's servers, clients and objects, as a table or JSON. */
    public static ClusterView view(String cluster) {
        try (ClusterAdministration admin = ClusterAdministration.connect(cluster)) {
            return viewOf(cluster, admin);
        }
    }

    private static ClusterView viewOf(String cluster, ClusterAdministration admin) {
        java.util.Map<Integer, Long> gone = new java.util.TreeMap<>();
        admin.goneServers().forEach(s -> gone.put(s, admin.serverPid(s)));
        return new ClusterView(cluster, admin.status(), gone);
    }

    /**
     * Moves the client object {@code object} (its name, or {@code #id}) to server {@code node}.
     *
     * @throws CumulusException when there is no such object or server, or the move fails (it then stays where it was)
     */
    public static void migrate(String cluster, String object, int node, PrintStream out) {
        try (ClusterAdministration admin = ClusterAdministration.connect(cluster)) {
            if (node < 0 || node >= admin.servers()) {
                throw new CumulusException("cluster " + cluster + " has servers 0.." + (admin.servers() - 1)
                    + ", not " + node);
            }
            ClusterView view = viewOf(cluster, admin);
            ClusterView.ObjectRow row = view.object(object).orElseThrow(() -> new CumulusException("cluster "
                + cluster + " has no client object '" + object + "' ('cumulus ps " + cluster + "' lists them, by "
                + "name and #id)"));
            if (row.server() == node) {
                out.println(row.name() + " (#" + row.id() + ") is on server " + node + " already");
                return;
            }
            admin.migrate(row.id(), row.server(), node);
            out.println("moved " + row.name() + " (#" + row.id() + ") from server " + row.server() + " to server "
                + node);
        }
    }

    /**
     * Puts client {@code client} out of the cluster: every server refuses its calls and removes its objects, and its
     * process is stopped.
     *
     * @throws CumulusException when no such client is attached
     */
    public static void kill(String cluster, int client, PrintStream out) {
        try (ClusterAdministration admin = ClusterAdministration.connect(cluster)) {
            ClusterView view = viewOf(cluster, admin);
            ClusterView.Client c = view.clients().stream().filter(x -> x.client() == client && x.servers() > 0)
                .findFirst().orElseThrow(() -> new CumulusException("no client " + client + " is attached to cluster "
                    + cluster + " ('cumulus ps " + cluster + "' lists the clients)"));
            admin.kill(client);
            out.println("client " + client + " is out of cluster " + cluster + " (its " + c.objects()
                + " object(s) removed); " + ClientKill.stopProcess(c.pid()));
        }
    }
}
