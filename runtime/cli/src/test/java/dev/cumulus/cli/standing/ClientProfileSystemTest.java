package dev.cumulus.cli.standing;

import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.report.RunProfile;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
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
 * objects' calls, as many as it made, seen from both ends, and nothing of the other client's.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ClientProfileSystemTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void startCluster() {
        TestClusters.start(tmp.resolve("cfg"), "prof", 2, null);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            TestClusters.stop("prof");
        } finally {
            List<ProcessHandle> left = ProcessHandle.current().descendants().toList();
            left.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle p : left) {
                p.onExit().get(10, TimeUnit.SECONDS);
            }
            assertTrue(left.isEmpty(), "processes left behind: " + left);
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

    private record Run(String tag, Path dir, int exit, String out, String err) {
    }

    private static Run run(String tag, String peer, Path ready) {
        try {
            Path dir = tmp.resolve("run-" + tag);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String cp = new File(ProfiledClientMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getPath();
            int exit = AttachedRun.runProfiled(ClusterRegistry.ofUser(), "prof", cp, ProfiledClientMain.class.getName(),
                List.of(tag, ready.toString(), peer), List.of(), dir,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Run(tag, dir, exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
