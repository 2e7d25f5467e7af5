package dev.cumulus.cli;

import static dev.cumulus.cli.CumulusCliTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code cumulus bench} up to the point where it starts the benchmark JVM: help, usage errors, where it looks. */
@Timeout(60)
class BenchCommandTest {
    @Test
    void helpNamesTheSuitesWithoutTheBenchmarksOnTheClasspath() {
        CumulusCliTest.Result r = cli("bench", "--help");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Usage: cumulus bench"), r.out());
        assertTrue(r.out().contains("rpc, arrays, pastset, replication"), r.out());
    }

    @Test
    void anUnknownSuiteIsAUsageError() {
        CumulusCliTest.Result r = cli("bench", "nope");
        assertEquals(CumulusCli.EXIT_USAGE, r.code());
        assertTrue(r.err().contains("unknown suite 'nope'; suites: rpc, arrays, pastset, replication"), r.err());
    }

    @Test
    void wanOnlyBelongsToTheReplicationSuite() {
        CumulusCliTest.Result r = cli("bench", "rpc", "--wan-only");
        assertEquals(CumulusCli.EXIT_USAGE, r.code());
        assertTrue(r.err().contains("--wan-only is an option of the replication suite"), r.err());
    }

    @Test
    void looksForTheBenchBuildInTheCheckoutThatHoldsTheCli() throws Exception {
        Path target = BenchProcess.benchTarget();
        assertEquals(Path.of("bench", "target"), target.getParent().getParent().relativize(target));
        assertTrue(Files.isRegularFile(target.getParent().resolve("pom.xml")), target.toString());
        assertTrue(Files.isDirectory(target.getParent().getParent().resolve("runtime").resolve("cli")), target.toString());
    }
}
