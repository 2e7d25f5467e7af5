package dev.cumulus.internal.node;

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
 * Model-checks docs/design/doorbell.pml with spin: the polling role and the doorbell hand-off between a node's main
 * thread, callers that poll for their replies, and senders never leave a message for the sleep's timeout. With one
 * caller the search is exhaustive; with two it is a bitstate search (the full space needs gigabytes). Skips when spin
 * or gcc is missing; {@code scripts/setup-tools.sh} installs them.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DoorbellModelCheckTest {

    @Test
    void oneCallerExhaustively(@TempDir Path dir) throws Exception {
        String out = check(dir, 1, List.of("-DSAFETY", "-DCOLLAPSE"), List.of("./pan", "-m100000"));
        assertTrue(out.contains("invalid end states\t+"), "deadlock (invalid end state) checking must be on:\n" + out);
    }

    @Test
    void twoCallersByBitstateSearch(@TempDir Path dir) throws Exception {
        check(dir, 2, List.of("-DSAFETY", "-DBITSTATE"), List.of("./pan", "-w26", "-m100000"));
    }

    private static String check(Path dir, int callers, List<String> panFlags, List<String> panRun) throws Exception {
        Assumptions.assumeTrue(onPath("spin") && onPath("gcc"), "spin or gcc is not installed: run "
            + "scripts/setup-tools.sh (apt-get install -y spin gcc) to model-check docs/design/doorbell.pml");
        Files.copy(findModel(), dir.resolve("doorbell.pml"));
        run(dir, List.of("spin", "-DNC=" + callers, "-a", "doorbell.pml"));
        List<String> gcc = new java.util.ArrayList<>(List.of("gcc", "-w", "-O2"));
        gcc.addAll(panFlags);
        gcc.addAll(List.of("-o", "pan", "pan.c"));
        run(dir, gcc);
        String out = run(dir, panRun);
        assertTrue(out.contains("errors: 0"), out);
        assertTrue(!out.contains("pan:1:"), out);
        return out;
    }

    private static String run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), String.join(" ", command) + " failed:\n" + out);
            return out;
        } finally {
            p.destroyForcibly();
        }
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
            Path m = d.resolve("docs/design/doorbell.pml");
            if (Files.isRegularFile(m)) {
                return m;
            }
            d = d.getParent();
        }
        throw new AssertionError("docs/design/doorbell.pml not found above " + Path.of("").toAbsolutePath());
    }
}
