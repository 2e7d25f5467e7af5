package dev.cumulus.cli.standing;

import dev.cumulus.cli.CliRun;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cumulus.AccessDeniedException;
import dev.cumulus.Cluster;
import dev.cumulus.cli.launch.ChildProcesses;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.service.StandingClusterFile;
import dev.cumulus.internal.service.ClientNode;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.service.ClientAdmission;
import dev.cumulus.internal.service.ClusterAdmin;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import shipped.admin.Counter;
import shipped.admin.CounterImpl;
import shipped.admin.WaitingClientMain;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus ps}, {@code migrate} and {@code kill} on a standing cluster of two real servers, with clients in this
 * JVM and in a process of their own; a client that is not the admin is refused the administration service.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class AdminSystemTest {
    @TempDir
    static Path tmp;
    private static ClusterRecord cluster;

    @BeforeAll
    static void startCluster() {
        cluster = TestClusters.start(tmp.resolve("cfg"), "adm", 2, null);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            TestClusters.stop("adm");
        } finally {
            ChildProcesses.noneLeftBehind();
        }
    }

    /** Runs the CLI in this JVM; fails with its output unless it exits with {@code expected}. */
    private static String cli(int expected, String... args) {
        CliRun r = CliRun.expect(expected, args);
        return expected == 0 ? r.out() : r.err();
    }

    private static JsonObject ps() {
        return JsonParser.parseString(cli(0, "ps", "adm", "--json")).getAsJsonObject();
    }

    private static Optional<JsonObject> object(JsonObject ps, String name) {
        for (JsonElement o : ps.getAsJsonArray("objects")) {
            if (o.getAsJsonObject().get("name").getAsString().equals(name)) {
                return Optional.of(o.getAsJsonObject());
            }
        }
        return Optional.empty();
    }

    @Test
    void psShowsServersClientsAndObjectsAndMigrateMovesOne() {
        try (Cluster c = Cluster.connect("adm")) {
            Counter counter = c.remoteNew(CounterImpl.class, Counter.class, "counter", 1);
            for (int i = 0; i < 50; i++) {
                counter.add(1);
            }
            JsonObject ps = ps();
            assertEquals("adm", ps.get("cluster").getAsString());
            JsonArray servers = ps.getAsJsonArray("servers");
            assertEquals(2, servers.size());
            for (int s = 0; s < 2; s++) {
                JsonObject server = servers.get(s).getAsJsonObject();
                assertEquals(s, server.get("server").getAsInt());
                assertEquals(cluster.serverPids().get(s).longValue(), server.get("pid").getAsLong());
                assertTrue(server.get("heapUsedBytes").getAsLong() > 0, server.toString());
            }
            JsonObject row = object(ps, "counter").orElseThrow(() -> new AssertionError(ps.toString()));
            assertEquals("shipped.admin.CounterImpl", row.get("className").getAsString());
            assertEquals(1, row.get("server").getAsInt());
            assertEquals(50, row.get("calls").getAsLong(), row.toString());
            int owner = row.get("owner").getAsInt();
            boolean listed = false;
            for (JsonElement client : ps.getAsJsonArray("clients")) {
                JsonObject o = client.getAsJsonObject();
                if (o.get("client").getAsInt() == owner) {
                    listed = true;
                    assertEquals(ProcessHandle.current().pid(), o.get("pid").getAsLong());
                    assertEquals(System.getProperty("user.name"), o.get("name").getAsString(),
                        "the principal it attached as (the OS user's own credential): " + o);
                    assertEquals(2, o.get("servers").getAsInt());
                }
            }
            assertTrue(listed, "the owner is among the clients: " + ps);
            assertEquals(1, ps.getAsJsonArray("clients").size(), "ps's own client is not listed: " + ps);

            String table = cli(0, "ps", "adm");
            assertTrue(table.contains("counter") && table.contains("shipped.admin.CounterImpl")
                && table.contains("SERVER") && table.contains("CLIENT"), table);

            String moved = cli(0, "migrate", "adm", "counter", "0");
            assertTrue(moved.contains("from server 1 to server 0"), moved);
            assertEquals(51, counter.add(1), "its state moved with it");
            assertEquals(cluster.serverPids().get(0).longValue(), counter.pid(), "it lives on server 0 now");
            assertEquals(0, object(ps(), "counter").orElseThrow().get("server").getAsInt());

            assertTrue(cli(1, "migrate", "adm", "nothing", "0").contains("no client object 'nothing'"));
            assertTrue(cli(1, "migrate", "adm", "counter", "7").contains("servers 0..1"));
        }
        assertTrue(object(ps(), "counter").isEmpty(), "its objects go with the client, wherever they moved");
    }

    @Test
    void killPutsAClientOutAndStopsItsProcess() throws Exception {
        String cp = new File(WaitingClientMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .getPath();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> AttachedRun.run(ClusterRegistry.ofUser(),
            "adm", cp, WaitingClientMain.class.getName(), List.of("waiter"), List.of(), ProcessBuilder.Redirect.PIPE,
            new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
        JsonObject row;
        while (true) { // until the client made its object
            Optional<JsonObject> found = object(ps(), "waiter");
            if (found.isPresent()) {
                row = found.get();
                break;
            }
            assertTrue(!run.isDone(), "the client ended early: " + out);
        }
        int client = row.get("owner").getAsInt();
        String said = cli(0, "kill", "adm", Integer.toString(client));
        assertTrue(said.contains("client " + client + " is out of cluster adm") && said.contains("stopped"), said);
        assertNotEquals(0, (int) run.get(30, TimeUnit.SECONDS), "the client's process was stopped");
        JsonObject after = ps();
        assertTrue(object(after, "waiter").isEmpty(), after.toString());
        assertEquals(0, after.getAsJsonArray("clients").size(), after.toString());
        assertTrue(cli(1, "kill", "adm", Integer.toString(client)).contains("no client " + client));
    }

    @Test
    void psOfAClusterThatDoesNotExistSaysWhatToDo() {
        String err = cli(1, "ps", "nope");
        assertTrue(err.contains("there is no standing cluster nope") && err.contains("cumulus cluster start"), err);
    }

    @Test
    void aClientThatIsNotTheAdminIsRefusedTheAdministrationService() {
        StandingClusterFile file = StandingClusterFile.read("adm");
        byte[] aliceKey = ClientAdmission.clientKey(file.credential(), "alice"); // what 'cluster grant adm alice' holds
        int id = file.servers() + NodeTransport.CLIENT_SLOTS - 1; // a slot no other client of this test takes
        TransportContext transport = new TransportContext(file.driverDir(), false, false, List.of(),
            file.streamBase(), file.runId().hashCode(), TransportContext.DEFAULT_DATA_TERM_LENGTH,
            TransportContext.DEFAULT_MAX_MESSAGE_BYTES, RunSecret.generate(), FrameSealing.MAC);
        NodeSettings settings = NodeSettings.of(0, file.servers(), NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
            NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, NodeSettings.DEFAULT_IDLE_STRATEGY, 1, System.getProperties());
        try (ClientNode alice = ClientNode.connect(transport, file.servers(), id, "alice", aliceKey, settings,
                getClass().getClassLoader(), server -> null, null, 0)) {
            byte[] proof = ClientAdmission.adminProof(aliceKey, id); // the best alice can make
            for (int server = 0; server < file.servers(); server++) {
                ClusterAdmin admin = alice.systemObject(server, ClusterAdmin.OBJECT_ID, ClusterAdmin.class);
                Map<String, Executable> calls = Map.of("status", () -> admin.status(proof),
                    "kill", () -> admin.kill(proof, id - 1), "migrate", () -> admin.migrate(proof, 1, 0));
                for (Map.Entry<String, Executable> call : calls.entrySet()) {
                    AccessDeniedException e = assertThrows(AccessDeniedException.class, call.getValue());
                    assertTrue(e.getMessage().contains("client alice (id " + id + ") may not call cumulus.ClusterAdmin."
                        + call.getKey() + "() on server " + server + ": that system service is the cluster's own"),
                        e.getMessage());
                }
            }
        }
        String log = readKeeperLog();
        assertTrue(log.contains("refused a call: client alice (id " + id + ") may not call cumulus.ClusterAdmin."),
            "the servers log the refusal:\n" + log);
    }

    private static String readKeeperLog() {
        try {
            return Files.readString(tmp.resolve("cfg/clusters/adm/keeper.log"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
