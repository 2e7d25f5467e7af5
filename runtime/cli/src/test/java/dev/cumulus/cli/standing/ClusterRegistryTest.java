package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class ClusterRegistryTest {
    @TempDir
    Path tmp;

    private ClusterRecord record(String name, long keeper) {
        return new ClusterRecord(name, keeper, List.of(11L, 12L), "run-1", "/dev/shm/cumulus-run-1", 1000,
            tmp.resolve("run"), "ab".repeat(32), Instant.parse("2026-01-02T03:04:05Z"),
            ClusterRecord.ServerPlacement.ONE_HOST);
    }

    @Test
    void aRecordIsWrittenOwnerOnlyAndReadBack() throws Exception {
        ClusterRegistry registry = new ClusterRegistry(tmp.resolve("cfg"));
        ClusterRecord r = record("demo", ProcessHandle.current().pid());
        registry.write(r);
        assertEquals(r, registry.read("demo").orElseThrow());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(registry.stateFile("demo"))));
        assertEquals("rwx------", PosixFilePermissions.toString(
            Files.getPosixFilePermissions(registry.stateFile("demo").getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(
            Files.getPosixFilePermissions(registry.clusterDirectory("demo"))));
        assertTrue(r.alive(), "this JVM as keeper is alive");
    }

    @Test
    void aRecordWhoseKeeperIsGoneIsStale() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-version").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.waitFor();
        assertFalse(record("gone", p.pid()).alive());
    }

    @Test
    void listShowsEveryClusterByNameAndTellsDamagedFiles() throws Exception {
        ClusterRegistry registry = new ClusterRegistry(tmp.resolve("cfg"));
        registry.write(record("b", 1));
        registry.write(record("a", 1));
        registry.clusterDirectory("c");
        Files.writeString(registry.stateFile("c"), "name=c\n");
        List<String> damaged = new ArrayList<>();
        assertEquals(List.of("a", "b"), registry.list(damaged).stream().map(ClusterRecord::name).toList());
        assertEquals(List.of("c"), damaged);
        CumulusException e = assertThrows(CumulusException.class, () -> registry.read("c"));
        assertTrue(e.getMessage().contains("lacks '") && e.getMessage().contains("cluster stop"),
            e.getMessage());
    }

    @Test
    void removeDeletesTheStateFileAndTheDirectory() {
        ClusterRegistry registry = new ClusterRegistry(tmp.resolve("cfg"));
        registry.write(record("demo", 1));
        registry.remove("demo");
        assertTrue(registry.read("demo").isEmpty());
        assertFalse(Files.exists(registry.stateFile("demo").resolveSibling("demo")));
    }

    @Test
    void namesThatCouldEscapeTheDirectoryAreRefused() {
        for (String bad : List.of("", "../x", ".hidden", "a/b", "x".repeat(65), "a b")) {
            CumulusException e = assertThrows(CumulusException.class, () -> ClusterRegistry.checkName(bad), bad);
            assertTrue(e.getMessage().contains("letters, digits"), e.getMessage());
        }
        assertEquals("prod-1.a_b", ClusterRegistry.checkName("prod-1.a_b"));
    }

    @Test
    void theConfigurationDirectoryFollowsPropertyThenEnvironmentThenXdg() {
        assertEquals(Path.of("/p"), ClusterRegistry.configDir("/p", Map.of("CUMULUS_CONFIG_DIR", "/e")));
        assertEquals(Path.of("/e"), ClusterRegistry.configDir(null, Map.of("CUMULUS_CONFIG_DIR", "/e",
            "XDG_CONFIG_HOME", "/x")));
        assertEquals(Path.of("/x/cumulus"), ClusterRegistry.configDir(null, Map.of("XDG_CONFIG_HOME", "/x")));
        assertEquals(Path.of(System.getProperty("user.home"), ".config", "cumulus"),
            ClusterRegistry.configDir(null, Map.of()));
    }
}
