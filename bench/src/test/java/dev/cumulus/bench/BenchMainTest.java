package dev.cumulus.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The orchestrator's arguments (what the CLI passes on): the ones it refuses, before any suite starts. */
@Timeout(30)
class BenchMainTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return BenchMain.run(List.of(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theFirstArgumentIsASuite() {
        assertEquals(BenchMain.EXIT_USAGE, run("--quick"));
        assertTrue(err().contains("the first argument must be a suite (rpc, arrays, pastset, replication, migration, hostile, profile, single-vm) or all"),
            err());
    }

    @Test
    void unknownArgumentsAndMissingValuesAreRefused() {
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--fast"));
        assertTrue(err().contains("unknown argument '--fast'"), err());
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle"));
        assertTrue(err().contains("--idle needs a value"), err());
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--nodes", "2,x"));
        assertTrue(err().contains("--nodes takes node counts separated by commas, not '2,x'"), err());
    }

    @Test
    void aBadHostsFileIsNamedWithItsLineBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "host1 slots=2\nhost2 cores=4\n");
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--hosts", file.toString()));
        assertTrue(err().contains("cumulus bench: " + file + ":2: unexpected 'cores=4'"), err());
    }

    @Test
    void moreProcessesThanTheHostsSlotsAreRefused(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "host1\nhost2\n");
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--nodes", "4", "--hosts", file.toString()));
        assertTrue(err().contains("--nodes 4 is more than the 2 slots of " + file), err());
    }

    @Test
    void theSuitesAndOptionsThatMeasureOnOneHostRefuseHosts(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("hosts"), "host1\nhost2\n");
        assertEquals(BenchMain.EXIT_USAGE, run("pastset", "--idle", "backoff", "--hosts", file.toString()));
        assertTrue(err().contains("--hosts runs the rpc and replication suites, not pastset"), err());
        assertEquals(BenchMain.EXIT_USAGE, run("replication", "--idle", "backoff", "--wan-only", "--hosts",
            file.toString()));
        assertTrue(err().contains("--wan-only measures on this host only; drop --hosts"), err());
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--ssh", "-F x"));
        assertTrue(err().contains("--ssh is an option of --hosts"), err());
    }

    @Test
    void attachIsAnOptionOfTheRpcSuiteOnThisHost() {
        assertEquals(BenchMain.EXIT_USAGE, run("replication", "--idle", "backoff", "--attach"));
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff", "--attach", "--transport", "udp"));
    }

    @Test
    void theRpcSuiteNeedsNodeCounts() {
        assertEquals(BenchMain.EXIT_USAGE, run("rpc", "--idle", "backoff"));
        assertTrue(err().contains("the rpc suite needs --nodes"), err());
    }
}
