package dev.cumulus.array;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks docs/design/coherence.pml with spin (3 nodes, 2 partitions, one random access per node before a
 * barrier and a read of every partition after it): no two writable copies, no stale read, no deadlock. Skips when
 * spin or gcc is missing; {@code scripts/setup-tools.sh} installs them.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CoherenceModelCheckTest {

    @Test
    void spinFindsNoErrorInTheCoherenceModel(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(onPath("spin"), "spin is not installed: run scripts/setup-tools.sh "
            + "(apt-get install -y spin) to model-check docs/design/coherence.pml");
        Assumptions.assumeTrue(onPath("gcc"), "gcc is not installed: run scripts/setup-tools.sh to model-check "
            + "docs/design/coherence.pml");
        Path model = findModel();
        Files.copy(model, dir.resolve("coherence.pml"));
        run(dir, List.of("spin", "-DOPS=1", "-a", "coherence.pml"));
        run(dir, List.of("gcc", "-w", "-O2", "-DSAFETY", "-DCOLLAPSE", "-o", "pan", "pan.c"));
        String out = run(dir, List.of("./pan", "-m200000"));
        assertTrue(out.contains("errors: 0"), out);
        assertTrue(!out.contains("pan:1:"), out);
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
    }

    private static String run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + " failed:\n" + out);
        return out;
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    private static Path findModel() {
        Path d = Path.of("").toAbsolutePath();
        while (d != null) {
            Path m = d.resolve("docs/design/coherence.pml");
            if (Files.isRegularFile(m)) {
                return m;
            }
            d = d.getParent();
        }
        throw new AssertionError("docs/design/coherence.pml not found above " + Path.of("").toAbsolutePath());
    }
}
