package dev.cumulus;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model-checks a Promela model of docs/design with Debian's spin: generates the verifier, compiles it with gcc, runs
 * it, and asserts that it found no error. Skips with the reason when spin or gcc is missing
 * ({@code scripts/setup-tools.sh} installs them).
 */
public final class SpinModel {
    private SpinModel() {
    }

    /**
     * Checks {@code docs/design/MODEL} in {@code dir}: {@code spin SPIN_ARGS -a MODEL}, {@code gcc GCC_FLAGS}, then
     * {@code PAN_RUN}; returns the verifier's output.
     */
    public static String check(Path dir, String model, List<String> spinArgs, List<String> gccFlags,
                               List<String> panRun) throws IOException, InterruptedException {
        String out = verify(dir, model, spinArgs, gccFlags, panRun);
        assertTrue(out.contains("errors: 0"), out);
        assertTrue(!out.contains("pan:1:"), out);
        return out;
    }

    /**
     * As {@link #check}, without judging the verifier's output: for a mutant of a model, which must fail (the caller
     * asserts that it found the error).
     */
    public static String verify(Path dir, String model, List<String> spinArgs, List<String> gccFlags,
                                List<String> panRun) throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("spin") && onPath("gcc"), "spin or gcc is not installed: run "
            + "scripts/setup-tools.sh (apt-get install -y spin gcc) to model-check docs/design/" + model);
        Files.copy(find(model), dir.resolve(model));
        List<String> spin = new ArrayList<>(List.of("spin"));
        spin.addAll(spinArgs);
        spin.addAll(List.of("-a", model));
        run(dir, spin);
        List<String> gcc = new ArrayList<>(List.of("gcc", "-w", "-O2"));
        gcc.addAll(gccFlags);
        gcc.addAll(List.of("-o", "pan", "pan.c"));
        run(dir, gcc);
        return run(dir, panRun);
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

    private static Path find(String model) {
        Path d = Path.of("").toAbsolutePath();
        while (d != null) {
            Path m = d.resolve("docs/design").resolve(model);
            if (Files.isRegularFile(m)) {
                return m;
            }
            d = d.getParent();
        }
        throw new AssertionError("docs/design/" + model + " not found above " + Path.of("").toAbsolutePath());
    }
}
