package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Packs a class directory (classes and resources) into a jar whose bytes depend only on the files' relative names and
 * contents: entries in name order, one fixed time, no extra fields. Unchanged classes therefore pack to the same bytes
 * and the same {@link ContentHash}, and a host that has them cached is sent nothing.
 */
public final class DirectoryJar {
    /** The time every entry carries (the zip format's earliest, 1980-01-01). */
    private static final LocalDateTime FIXED_TIME = LocalDateTime.of(1980, 1, 1, 0, 0);

    private DirectoryJar() {
    }

    /**
     * Writes {@code dir}'s files and directories as a jar to {@code target}; a symbolic link to a file is packed as the
     * file it points to, a linked directory is not entered.
     */
    public static void pack(Path dir, Path target) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(p -> !p.equals(dir)).filter(p -> Files.isRegularFile(p) || Files.isDirectory(p))
                .sorted(Comparator.comparing(p -> entryName(dir, p))).toList();
        }
        try (OutputStream out = Files.newOutputStream(target); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Path p : files) {
                boolean directory = Files.isDirectory(p);
                ZipEntry e = new ZipEntry(entryName(dir, p));
                e.setTimeLocal(FIXED_TIME);
                zip.putNextEntry(e);
                if (!directory) {
                    Files.copy(p, zip);
                }
                zip.closeEntry();
            }
        }
    }

    /** {@code p}'s name in the jar: relative, '/'-separated, a directory's with a trailing '/'. */
    private static String entryName(Path dir, Path p) {
        String name = dir.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
        return Files.isDirectory(p) ? name + "/" : name;
    }
}
