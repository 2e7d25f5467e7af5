package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs spin's verifier on Promela models of docs/design and returns its output: {@code spin SPIN_ARGS -a MODEL},
 * {@code gcc}, {@code ./pan PAN_ARGS}. A small copy of runtime/core's test helper {@code dev.cumulus.SpinModel}
 * (a test-jar dependency would break {@code ./build package}, which skips compiling tests), which also copies the
 * models a model includes and leaves judging the output to the caller, so a test can expect a violation. Skips with
 * the reason when spin or gcc is missing ({@code scripts/setup-tools.sh} installs them).
 */
final class SpinRunner {
    private SpinRunner() {
    }

    /** Verifies {@code models.get(0)} (the others are files it includes) in {@code dir}; returns pan's output. */
    static String verify(Path dir, List<String> models, List<String> spinArgs, List<String> panArgs)
        throws IOException, InterruptedException {
        Assumptions.assumeTrue(onPath("spin") && onPath("gcc"), "spin or gcc is not installed: run "
            + "scripts/setup-tools.sh (apt-get install -y spin gcc) to model-check docs/design/" + models.getFirst());
        for (String m : models) {
            Files.copy(find(m), dir.resolve(m));
        }
        List<String> spin = new ArrayList<>(List.of("spin"));
        spin.addAll(spinArgs);
        spin.addAll(List.of("-a", models.getFirst()));
        run(dir, spin);
        run(dir, List.of("gcc", "-w", "-O2", "-DSAFETY", "-o", "pan", "pan.c"));
        List<String> pan = new ArrayList<>(List.of("./pan"));
        pan.addAll(panArgs);
        return run(dir, pan);
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
