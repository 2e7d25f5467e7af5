package dev.cumulus.cli;

import dev.cumulus.internal.cloud.BroadcastWriteEvent;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.cloud.SequencerMigrationEvent;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cumulus profile RUN_DIR} in-process, on a run directory whose recording is made with the runtime's events. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProfileCommandTest {
    @TempDir
    Path dir;

    private Path runDir() throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run);
        try (Recording r = new Recording()) {
            r.enable(RemoteCallEvent.NAME);
            r.enable(BroadcastWriteEvent.NAME);
            r.enable(SequencerMigrationEvent.NAME);
            r.start();
            RemoteCallEvent c = new RemoteCallEvent();
            c.begin();
            c.callerNode = 0;
            c.targetNode = 1;
            c.object = "worker-1";
            c.method = "multiply";
            c.requestBytes = 64;
            c.replyBytes = 32;
            c.outcome = "ok";
            c.commit();
            BroadcastWriteEvent w = new BroadcastWriteEvent();
            w.begin();
            w.node = 0;
            w.cloud = "best";
            w.method = "set";
            w.bytes = 12;
            w.commit();
            SequencerMigrationEvent m = new SequencerMigrationEvent();
            m.fromNode = 1;
            m.toNode = 0;
            m.commit();
            r.stop();
            r.dump(run.resolve("node-0.jfr"));
        }
        Files.writeString(run.resolve("launch.properties"), "cumulus.nodes=1\n");
        return run;
    }

    @Test
    void printsTheTablesAndWritesTheHtmlPage() throws Exception {
        Path run = runDir();

        CliRun r = CliRun.of("profile", run.toString());

        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("remote calls by object and method:"), r.out());
        assertTrue(r.out().contains("worker-1"), r.out());
        assertTrue(r.out().contains("replicated writes by cloud and method"), r.out());
        assertTrue(r.out().contains("sequencer migrations: 1"), r.out());
        Path html = run.resolve("profile.html");
        assertTrue(Files.isRegularFile(html));
        assertTrue(r.err().contains("wrote " + html.toAbsolutePath().normalize()), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<section id=\"sequencer\">") && page.contains("<svg"), "charts in the page");
    }

    @Test
    void jsonToStdoutAndHtmlWhereAsked() throws Exception {
        Path run = runDir();
        Path html = dir.resolve("elsewhere.html");

        CliRun r = CliRun.of("profile", "--json", "--html", html.toString(), run.toString());

        assertEquals(0, r.exit(), r.err());
        ProfileReport m = (ProfileReport) ProfileGson.read(r.out().strip());
        assertEquals("worker-1", m.remote().getFirst().object());
        assertTrue(Files.isRegularFile(html));
        assertFalse(Files.exists(run.resolve("profile.html")));
    }

    @Test
    void aMissingRunDirectoryIsAUsageError() {
        Path missing = dir.resolve("no-such-run");

        CliRun r = CliRun.of("profile", missing.toString());

        assertEquals(2, r.exit());
        assertTrue(r.err().contains("cumulus profile: " + missing + " does not exist"), r.err());
        assertTrue(r.err().contains("run directory"), r.err());
        assertEquals(2, CliRun.of("profile").exit(), "RUN_DIR is required");
    }
}
