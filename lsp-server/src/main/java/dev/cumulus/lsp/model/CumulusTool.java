package dev.cumulus.lsp.model;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the {@code cumulus} command line: an explicit path (initialization option {@code cumulusCommand}), else
 * {@code cumulus} in the workspace root, else in a folder above the server's own jar (a Cumulus checkout:
 * {@code lsp-server/target/cumulus-lsp.jar} lives two levels below {@code ./cumulus}), else on {@code PATH}.
 */
public final class CumulusTool {
    private CumulusTool() {
    }

    /** The command, or {@code null} if none is found. */
    public static Path find(String explicit, Path workspaceRoot) {
        if (explicit != null && !explicit.isBlank()) {
            Path p = Path.of(explicit);
            return Files.isExecutable(p) ? p.toAbsolutePath() : null;
        }
        if (workspaceRoot != null && Files.isExecutable(workspaceRoot.resolve("cumulus"))
                && Files.isRegularFile(workspaceRoot.resolve("cumulus"))) {
            return workspaceRoot.resolve("cumulus");
        }
        try {
            Path here = Path.of(CumulusTool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path d = here.getParent();
            for (int i = 0; i < 4 && d != null; i++, d = d.getParent()) {
                Path c = d.resolve("cumulus");
                if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                    return c;
                }
            }
        } catch (Exception e) {
            // no code source (e.g. a custom class loader): fall through to PATH
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                Path c = Path.of(dir, "cumulus");
                if (Files.isRegularFile(c) && Files.isExecutable(c)) {
                    return c;
                }
            }
        }
        return null;
    }
}
