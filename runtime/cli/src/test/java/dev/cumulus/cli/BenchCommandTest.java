package dev.cumulus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code cumulus bench} up to the point where it starts the benchmark JVM: help, usage errors, where it looks. */
@Timeout(60)
class BenchCommandTest {
    @Test
    void helpNamesTheSuitesWithoutTheBenchmarksOnTheClasspath() {
        CliRun r = CliRun.of("bench", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Usage: cumulus bench"), r.out());
        assertTrue(r.out().replaceAll("\\s+", " ").contains("rpc, replication, arrays, pastset, migration, hostile, profile, single-vm"), r.out());
    }

    @Test
    void helpListsEverySuiteWithItsOneNodeCountDefault() {
        String help = CliRun.of("bench", "--help").out();
        for (String suite : BenchCommand.SUITES) {
            assertTrue(help.lines().anyMatch(l -> l.startsWith("  " + suite + " ")), suite + " in\n" + help);
        }
        assertTrue(help.contains("(nodes 2,4)"), help);
        assertTrue(help.contains("nodes 1,2,4,8"), help);
        assertTrue(!help.contains("default: 2,4"), "no second default beside the suites' own: " + help);
        assertTrue(help.replaceAll("\\s+", " ").contains("(default: the suite's)"), help);
        assertTrue(help.lines().allMatch(l -> l.length() <= 80), "no line wrapped by picocli: " + help);
        assertTrue(help.contains("Without SUITE: rpc, then replication."), help);
    }

    @Test
    void nodeCountsThatAreNoNumbersSayWhatIsExpected() {
        CliRun r = CliRun.of("bench", "rpc", "--nodes", "2,abc");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("'abc' is not a whole number; give digits only, e.g. 4"), r.err());
        assertTrue(!r.err().contains("is not a int") && !r.err().contains("Integer"), r.err());
    }

    @Test
    void theArraysSuiteRefusesNodeCountsItWouldIgnore() {
        CliRun r = CliRun.of("bench", "arrays", "--nodes", "2");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("the arrays suite runs fixed node counts (2 to 4); drop --nodes"), r.err());
    }

    @Test
    void theMigrationSuiteRefusesNodeCountsItWouldIgnore() {
        CliRun r = CliRun.of("bench", "migration", "--nodes", "3");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("the migration suite runs on 5 nodes; drop --nodes"), r.err());
    }

    @Test
    void theHostileSuiteRefusesNodeCountsItWouldIgnore() {
        CliRun r = CliRun.of("bench", "hostile", "--nodes", "3");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("the hostile suite runs on 2 nodes (an IPC run, then a UDP run); drop --nodes"),
            r.err());
    }

    @Test
    void theProfileSuiteRefusesNodeCountsItWouldIgnore() {
        CliRun r = CliRun.of("bench", "profile", "--nodes", "4");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("the profile suite runs on 2 nodes; drop --nodes"), r.err());
    }

    @Test
    void theSingleVmSuiteRefusesNodeCountsItWouldIgnore() {
        CliRun r = CliRun.of("bench", "single-vm", "--nodes", "4");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("the single-vm suite runs plain java, 1 node and 2 nodes; drop --nodes"), r.err());
    }

    @Test
    void anUnknownSuiteIsAUsageError() {
        CliRun r = CliRun.of("bench", "nope");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("unknown suite 'nope'; suites: rpc, replication, arrays, pastset, migration, hostile, profile, single-vm"), r.err());
    }

    @Test
    void attachBelongsToTheRpcSuiteOnThisHost() {
        CliRun r = CliRun.of("bench", "replication", "--attach");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--attach is an option of the rpc suite"), r.err());
    }

    @Test
    void wanOnlyBelongsToTheReplicationSuite() {
        CliRun r = CliRun.of("bench", "rpc", "--wan-only");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--wan-only is an option of the replication suite"), r.err());
    }

    @Test
    void hostsAreForTheRpcAndReplicationSuitesMeasuredOverSeveralHosts(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "host1\nhost2\n");
        CliRun r = CliRun.of("bench", "pastset", "--hosts", hosts.toString());
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--hosts runs the rpc and replication suites, not pastset"), r.err());
        r = CliRun.of("bench", "rpc", "--idle-sweep", "--hosts", hosts.toString());
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--idle-sweep measures on this host only; drop --hosts"), r.err());
        r = CliRun.of("bench", "rpc", "--ssh", "-F x");
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--ssh is an option of --hosts"), r.err());
        r = CliRun.of("bench", "rpc", "--hosts", dir.resolve("absent").toString());
        assertEquals(CumulusCli.EXIT_USAGE, r.exit());
        assertTrue(r.err().contains("--hosts " + dir.resolve("absent") + ": no such file"), r.err());
    }

    @Test
    void helpSaysTheHostsMustShareThePaths() {
        String help = CliRun.of("bench", "--help").out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--hosts FILE"), help);
        assertTrue(help.contains("The hosts must see this JDK and this checkout (the bench's classpath) at the same "
            + "paths."), help);
    }

    @Test
    void looksForTheBenchBuildInTheCheckoutThatHoldsTheCli() throws Exception {
        Path target = BenchProcess.benchTarget();
        assertEquals(Path.of("bench", "target"), target.getParent().getParent().relativize(target));
        assertTrue(Files.isRegularFile(target.getParent().resolve("pom.xml")), target.toString());
        assertTrue(Files.isDirectory(target.getParent().getParent().resolve("runtime").resolve("cli")), target.toString());
    }
}
