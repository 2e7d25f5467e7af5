package dev.cumulus.internal.launch;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * A node's report to its launcher in the run directory ({@link FailureReport}, {@link ExitReport}): a properties file
 * written to a temporary file and renamed, so a reader never sees part of one.
 */
final class ReportFile {
    private ReportFile() {
    }

    /** Writes {@code properties} as {@code file}; false if it could not. */
    static boolean write(Path file, Properties properties, String comment) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                properties.store(w, comment);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** The properties of {@code file}, or empty when there is none or it cannot be read. */
    static Optional<Properties> read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
            return Optional.of(p);
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // none yet (NoSuchFileException), or not readable
        }
    }
}
