package dev.cumulus.cli.standing;

import com.google.gson.GsonBuilder;
import dev.cumulus.internal.service.AdminStatus;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code cumulus ps NAME} shows of a standing cluster, from its servers' statuses: the servers (load, memory),
 * the clients attached, and the clients' objects (owner, class, server, calls per second), as a table or as JSON (the
 * editor's "Attached clusters" view reads the JSON; its fields are documented in docs/CLI.md).
 */
public final class ClusterView {
    /**
     * A server's row; {@code state} is {@code serving}, or {@code gone} for a server whose process ended (the others
     * serve on), whose figures are then -1.
     */
    public record Server(int server, long pid, double cpuLoad, double loadAverage, long heapUsedBytes,
                         long heapMaxBytes, int threads, long uptimeMs, int objects, String state) {
        static final String SERVING = "serving";
        static final String GONE = "gone";
    }

    /**
     * A client's row: the principal it attached as ({@code name}; null for the owner of objects that no server lists
     * as attached any more), attached to {@code servers} of the cluster's servers.
     */
    public record Client(int client, String name, long pid, int servers, int objects) {
    }

    /** An object's row. */
    public record ObjectRow(long id, String name, int owner, String className, int server, long calls,
                            double callsPerSecond) {
    }

    private final String cluster;
    private final List<Server> servers = new ArrayList<>();
    private final List<Client> clients = new ArrayList<>();
    private final List<ObjectRow> objects = new ArrayList<>();

    public ClusterView(String cluster, List<AdminStatus> statuses) {
        this(cluster, statuses, Map.of());
    }

    /** @param goneServers the servers that are gone, with the pid each had */
    public ClusterView(String cluster, List<AdminStatus> statuses, Map<Integer, Long> goneServers) {
        this.cluster = cluster;
        Map<Integer, long[]> byClient = new TreeMap<>(); // client -> pid, servers, objects
        Map<Integer, String> names = new TreeMap<>();
        for (AdminStatus s : statuses) {
            servers.add(new Server(s.server(), s.pid(), s.processCpuLoad(), s.systemLoad(), s.heapUsedBytes(),
                s.heapMaxBytes(), s.threads(), s.uptimeMs(), s.objects().length, Server.SERVING));
            for (AdminStatus.ClientStatus c : s.clients()) {
                long[] row = byClient.computeIfAbsent(c.client(), k -> new long[] {c.pid(), 0, 0});
                row[1]++;
                names.putIfAbsent(c.client(), c.name());
            }
            for (AdminStatus.ObjectStatus o : s.objects()) {
                objects.add(new ObjectRow(o.objectId(), o.name(), o.owner(), o.className(), o.server(), o.calls(),
                    o.callsPerSecond()));
                byClient.computeIfAbsent(o.owner(), k -> new long[] {-1, 0, 0})[2]++;
            }
        }
        goneServers.forEach((server, pid) -> servers.add(new Server(server, pid, -1, -1, -1, -1, -1, -1, 0,
            Server.GONE)));
        servers.sort(java.util.Comparator.comparingInt(Server::server));
        byClient.forEach((id, row) -> clients.add(new Client(id, names.get(id), row[0], (int) row[1],
            (int) row[2])));
        objects.sort(java.util.Comparator.comparingInt(ObjectRow::owner).thenComparing(ObjectRow::name));
    }

    public List<Server> servers() {
        return servers;
    }

    public List<Client> clients() {
        return clients;
    }

    public List<ObjectRow> objects() {
        return objects;
    }

    /** The object named {@code nameOrId}: its name, or {@code #id}, or its id. */
    public java.util.Optional<ObjectRow> object(String nameOrId) {
        String id = nameOrId.startsWith("#") ? nameOrId.substring(1) : nameOrId;
        return objects.stream().filter(o -> o.name().equals(nameOrId) || Long.toString(o.id()).equals(id))
            .findFirst();
    }

    /** The view as JSON (one object: cluster, servers, clients, objects). */
    public String toJson() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("cluster", cluster);
        root.put("servers", servers);
        root.put("clients", clients);
        root.put("objects", objects);
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(root);
    }

    /** The view as three tables. */
    public void printTable(PrintStream out) {
        out.printf("SERVER %8s %6s %6s %17s %8s %8s%n", "PID", "CPU", "LOAD", "HEAP", "THREADS", "OBJECTS");
        for (Server s : servers) {
            if (Server.GONE.equals(s.state())) {
                out.printf("%6d %8d  gone: its process ended; the other servers serve on%n", s.server(), s.pid());
                continue;
            }
            out.printf("%6d %8d %6s %6s %17s %8d %8d%n", s.server(), s.pid(), percent(s.cpuLoad()),
                s.loadAverage() < 0 ? "-" : String.format(Locale.ROOT, "%.2f", s.loadAverage()),
                mib(s.heapUsedBytes()) + "/" + mib(s.heapMaxBytes()), s.threads(), s.objects());
        }
        out.println();
        if (clients.isEmpty()) {
            out.println("no clients attached");
        } else {
            int nameWidth = Math.max(4, clients.stream().mapToInt(c -> c.name() == null ? 1 : c.name().length())
                .max().orElse(0));
            String format = "%6s %-" + nameWidth + "s %8s %8s %8s%n";
            out.printf(format, "CLIENT", "NAME", "PID", "SERVERS", "OBJECTS");
            for (Client c : clients) {
                out.printf(format, c.client(), c.name() == null ? "-" : c.name(),
                    c.pid() < 0 ? "-" : Long.toString(c.pid()), c.servers(), c.objects());
            }
        }
        out.println();
        if (objects.isEmpty()) {
            out.println("no objects");
            return;
        }
        int nameWidth = Math.max(6, objects.stream().mapToInt(o -> o.name().length()).max().orElse(0));
        int classWidth = Math.max(5, objects.stream().mapToInt(o -> o.className().length()).max().orElse(0));
        String format = "%-" + nameWidth + "s %14s %6s %-" + classWidth + "s %6s %10s %9s%n";
        out.printf(format, "OBJECT", "ID", "OWNER", "CLASS", "SERVER", "CALLS", "CALLS/S");
        for (ObjectRow o : objects) {
            out.printf(format, o.name(), "#" + o.id(), o.owner(), o.className(), o.server(), o.calls(),
                String.format(Locale.ROOT, "%.1f", o.callsPerSecond()));
        }
    }

    private static String percent(double share) {
        return share < 0 ? "-" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private static String mib(long bytes) {
        return bytes < 0 ? "-" : (bytes >> 20) + "MiB";
    }
}
