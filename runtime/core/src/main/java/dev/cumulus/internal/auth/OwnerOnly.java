package dev.cumulus.internal.auth;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Directories and files only their owner may open (0700, 0600): on one host the operating system's user is the
 * boundary between runs, so a run's Aeron directory (its log buffers hold every message over IPC) and run directory are
 * made so. On a file system without POSIX permissions these do what they can (create the directory) and change
 * nothing else.
 */
public final class OwnerOnly {
    public static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    public static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private OwnerOnly() {
    }

    /** The attribute that creates a file as 0600, for {@code Files.createFile} and {@code FileChannel.open}. */
    public static FileAttribute<?>[] fileAttributes() {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)} : new FileAttribute<?>[0];
    }

    /**
     * Creates {@code dir} as 0700 (its parents as usual); one that exists already is made 0700 if this user owns it.
     *
     * @throws CumulusException when it cannot be created or made owner-only
     */
    public static Path createDirectory(Path dir) {
        try {
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                restrict(dir);
                return dir;
            }
            if (dir.getParent() != null) {
                Files.createDirectories(dir.getParent());
            }
            try {
                if (POSIX) {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
                } else {
                    Files.createDirectory(dir);
                }
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                    throw e;
                } // another process (two clients attaching at once) made it first: restrict it as ours
            }
            restrict(dir); // the umask may have taken bits the attribute gave
            return dir;
        } catch (IOException e) {
            throw new CumulusException("cannot create the owner-only directory " + dir + ": " + e
                + "; check the permissions of its parent", e);
        }
    }

    /** Makes {@code path} 0700 (a directory) or 0600 (a file). */
    public static void restrict(Path path) throws IOException {
        if (POSIX && !Files.isSymbolicLink(path)) {
            Files.setPosixFilePermissions(path, Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) ? DIRECTORY : FILE);
        }
    }

    /** Makes every directory under {@code root} (and it) 0700 and every file 0600; what vanished meanwhile is skipped. */
    public static void restrictTree(Path root) {
        if (!POSIX) {
            return;
        }
        try (Stream<Path> s = Files.walk(root)) {
            s.forEach(p -> {
                try {
                    restrict(p);
                } catch (IOException e) {
                    // gone meanwhile (a log buffer of a closed stream): nothing left to protect
                }
            });
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new CumulusException("cannot make " + root + " owner-only: " + e.getMessage(), e);
        }
    }
}
