package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only driver directories whose recorded launcher is gone are removed; a live or unknown owner keeps its directory. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DriverDirectoriesTest {
    @TempDir
    Path root;

    @Test
    void onlyTheDirectoriesOfGoneLaunchersAreRemoved() throws Exception {
        Process finished = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-version").start();
        finished.getErrorStream().readAllBytes();
        finished.waitFor(20, TimeUnit.SECONDS);
        long gonePid = finished.pid();

        Path dead = dir("cumulus-dead", gonePid + " 2020-01-01T00:00:00Z");
        Path reused = dir("cumulus-reused", ProcessHandle.current().pid() + " 2020-01-01T00:00:00Z");
        Path live = root.resolve("cumulus-live");
        Files.createDirectories(live);
        DriverDirectories.markOwner(live);
        Path unknown = root.resolve("cumulus-unknown");
        Files.createDirectories(unknown.resolve("sub"));
        Path garbled = dir("cumulus-garbled", "not a pid");
        Path other = dir("other-dead", gonePid + "");

        CapturedOutput err = new CapturedOutput();
        List<Path> removed = DriverDirectories.removeStale(root, err.stream());

        assertEquals(List.of(dead, reused).stream().sorted().toList(), removed.stream().sorted().toList(),
            "a dead pid, and a live pid with another start time, are gone launchers");
        for (Path kept : List.of(live, unknown, garbled, other)) {
            assertTrue(Files.isDirectory(kept), kept + " kept");
        }
        assertTrue(err.text().contains("cumulus: removed " + dead + ", left by a run whose launcher is gone"),
            err.text());
    }

    private Path dir(String name, String owner) throws Exception {
        Path d = root.resolve(name);
        Files.createDirectories(d);
        Files.writeString(d.resolve(DriverDirectories.OWNER_FILE), owner + "\n");
        Files.writeString(d.resolve("cnc.dat"), "x");
        return d;
    }
}
