package dev.cumulus.cli.standing;

import dev.cumulus.cli.launch.ChildProcesses;
import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.report.RunProfile;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import shipped.profiled.NestedClientMain;
import shipped.profiled.ProfiledClientMain;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus run --attach NAME --profile} with two clients at once on the same two servers, each with objects of
 * its own on both: each client's profile (its own recording and what every server recorded for it) has its own
 * objects' calls, as many as it made, seen from both ends, and nothing of the other client's. A client's profile also
 * has the calls its objects make for it on other servers (nested calls) and the calls its objects serve on a server
 * they moved to.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClientProfileSystemTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void startCluster() {
        TestClusters.start(tmp.resolve("cfg"), "prof", 2, null);
        // the servers have the nested test's classes: a remote reference an object of a client is passed resolves
        // only in the server's own class path
        TestClusters.start(tmp.resolve("cfg"), "nest", 2, TestClusters.testClasses());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            try {
                TestClusters.stop("nest");
            } finally {
                TestClusters.useConfigDir(tmp.resolve("cfg"));
                TestClusters.stop("prof");
            }
        } finally {
            ChildProcesses.noneLeftBehind();
        }
    }

    @Test
    void twoClientsAtOnceEachGetTheirOwnProfileOnly() throws Exception {
        Path ready = Files.createDirectories(tmp.resolve("ready"));
        CompletableFuture<Run> alpha = CompletableFuture.supplyAsync(() -> run("alpha", "beta", ready));
        CompletableFuture<Run> beta = CompletableFuture.supplyAsync(() -> run("beta", "alpha", ready));
        List<Run> runs = List.of(alpha.get(200, TimeUnit.SECONDS), beta.get(200, TimeUnit.SECONDS));
        String both = runs.stream().map(r -> "--- " + r.tag() + " (exit " + r.exit() + ") ---\n" + r.out() + r.err())
            .collect(Collectors.joining("\n"));
        for (Run r : runs) {
            assertEquals(0, r.exit(), "both clients' output:\n" + both);
        }
        for (Run r : runs) {
            String other = r.tag().equals("alpha") ? "beta" : "alpha";
            assertTrue(r.out().contains(r.tag() + " done: 70 30"), r.out());
            assertTrue(r.out().contains(r.tag() + "-0"), "the report after the run lists the client's objects:\n"
                + r.out());
            assertFalse(r.out().contains(other + "-"), "nothing of the other client in the report:\n" + r.out());
            String json = JsonReport.render(RunProfile.read(r.dir()));
            assertFalse(json.contains(other), "nothing of the other client in the profile:\n" + json);

            Map<String, Long> served = new TreeMap<>();
            Map<String, Long> called = new TreeMap<>();
            try (var files = Files.list(r.dir())) {
                for (Path f : files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList()) {
                    for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
                        String name = e.getEventType().getName();
                        if (name.equals("dev.cumulus.RemoteCallServed") && e.getString("method").equals("add")) {
                            served.merge(e.getString("object"), 1L, Long::sum);
                        } else if (name.equals("dev.cumulus.RemoteCall") && e.getString("method").equals("add")) {
                            called.merge(e.getString("object"), 1L, Long::sum);
                        }
                    }
                }
            }
            Map<String, Long> made = Map.of(r.tag() + "-0", 71L, r.tag() + "-1", 31L);
            assertEquals(new TreeMap<>(made), called, "the client's own recording: every call it made");
            assertEquals(new TreeMap<>(made), served, "the servers' shares: every call they served it");
        }
    }

    @Test
    void nestedCallsAndMovedObjectsAreTheClients() throws Exception {
        Run r = run("nest", "nested", NestedClientMain.class.getName(), List.of());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("nested done: 7 9 9"), r.out());
        Map<String, Long> nested = new TreeMap<>(); // calls made by a server: caller->target
        Map<String, Long> served = new TreeMap<>(); // calls served: object@server
        try (var files = Files.list(r.dir())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList()) {
                for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
                    String name = e.getEventType().getName();
                    if (!name.startsWith("dev.cumulus.RemoteCall") || !e.getString("method").equals("add")
                        || !"ok".equals(e.getString("outcome"))) {
                        continue;
                    }
                    if (name.equals("dev.cumulus.RemoteCall") && e.getInt("callerNode") < 2) {
                        nested.merge(e.getInt("callerNode") + "->" + e.getInt("targetNode"), 1L, Long::sum);
                    } else if (name.equals("dev.cumulus.RemoteCallServed")) {
                        served.merge(e.getString("object") + "@" + e.getInt("servingNode"), 1L, Long::sum);
                    }
                }
            }
        }
        assertEquals(Map.of("0->1", 9L), nested,
            "server 0's share: the calls the client's relay made for it on server 1 (7 to nest-target, 2 to nest-mover)");
        assertEquals(new TreeMap<>(Map.of("nest-target@1", 7L, "nest-mover@0", 3L, "nest-mover@1", 7L)), served,
            "the servers' shares: the relayed calls, and nest-mover's calls on both servers, before and after its move "
                + "(on server 1 also the relay's, which only the object's having moved there makes the client's)");
    }

    private record Run(String tag, Path dir, int exit, String out, String err) {
    }

    private static Run run(String tag, String peer, Path ready) {
        return run("prof", tag, ProfiledClientMain.class.getName(), List.of(tag, ready.toString(), peer));
    }

    private static Run run(String cluster, String tag, String mainClass, List<String> args) {
        try {
            Path dir = tmp.resolve("run-" + tag);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String cp = new File(ProfiledClientMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getPath();
            int exit = AttachedRun.runProfiled(ClusterRegistry.ofUser(), cluster, cp, mainClass, args, List.of(), dir,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(tag, dir, exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
