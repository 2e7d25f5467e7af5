package dev.cumulus.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The agent's {@code dumpDir=DIR} option: every class it weaves (or refuses) also written to DIR/name.class. */
final class WovenClassDump {
    private WovenClassDump() {
    }

    /**
     * Writes {@code bytes} to {@code dir/className.class} (for {@code javap -c -p}); nothing when {@code dir} or
     * {@code bytes} is {@code null}. A failure is reported on {@code err} and does not stop the weaving.
     */
    static void write(Path dir, String className, byte[] bytes, PrintStream err) {
        if (dir == null || bytes == null) {
            return;
        }
        try {
            Path f = dir.resolve(className + ".class");
            Files.createDirectories(f.getParent());
            Files.write(f, bytes);
        } catch (IOException | RuntimeException e) {
            err.println("cumulus-agent: cannot dump " + Names.dotted(className) + " to " + dir + ": " + e);
        }
    }
}
