package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Set;

/**
 * A host's cache of shipped classpath entries: an owner-only directory ({@code $XDG_CACHE_HOME/cumulus/classes}, by
 * default {@code ~/.cache/cumulus/classes}) holding {@code <sha256>.jar} files. An entry is written to a temporary
 * {@code .<sha256>.<pid>.part} file, checked (length and hash), and renamed into place atomically; so concurrent runs
 * on one host may receive the same entry, and a cache file is always complete and what its name says. Part files of
 * agents that are gone are removed when the cache is opened. Nothing is ever evicted: delete the directory to empty it.
 */
public final class ClassCache {
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    private static final String PART = ".part";

    private final Path dir;

    private ClassCache(Path dir) {
        this.dir = dir;
    }

    /** This user's cache directory on this host. */
    public static Path defaultDirectory() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("cumulus").resolve("classes");
    }

    /**
     * Opens (and creates, owner-only) the cache in {@code dir}.
     *
     * @throws IOException when it cannot be created, or exists but is not this user's alone
     */
    public static ClassCache open(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath().normalize();
        Files.createDirectories(abs.getParent());
        if (!Files.isDirectory(abs)) {
            try {
                Files.createDirectory(abs, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // another agent made it meanwhile: checked below
            }
        }
        String owner = Files.getOwner(abs).getName();
        String me = System.getProperty("user.name");
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(abs);
        if (!owner.equals(me) || !OWNER_ONLY.containsAll(perms)) {
            throw new IOException("the class cache " + abs + " is not " + me + "'s alone (owner " + owner + ", "
                + PosixFilePermissions.toString(perms) + "); make it so (chown " + me + " and chmod 700 it) or delete"
                + " it");
        }
        ClassCache cache = new ClassCache(abs);
        cache.removeOrphanParts();
        return cache;
    }

    public Path directory() {
        return dir;
    }

    /** The cache file of entry {@code hash} (there or not). */
    public Path path(String hash) {
        if (!ContentHash.isHash(hash)) {
            throw new IllegalArgumentException("not a SHA-256 hash: " + hash);
        }
        return dir.resolve(hash + ".jar");
    }

    public boolean has(String hash) {
        return Files.isRegularFile(path(hash));
    }

    /**
     * Reads exactly {@code lengthBytes} from {@code in} and puts them into the cache as entry {@code hash} when their
     * SHA-256 is {@code hash}. The stream is left after the entry in either case.
     *
     * @return null when stored, else why not (the bytes' hash differs)
     * @throws IOException when the stream ends early or the cache cannot be written (the stream is then unusable)
     */
    public String store(String hash, long lengthBytes, InputStream in) throws IOException {
        Path target = path(hash);
        Path part = dir.resolve("." + hash + "." + ProcessHandle.current().pid() + PART);
        MessageDigest digest = ContentHash.digest();
        try {
            try (OutputStream file = Files.newOutputStream(part)) {
                byte[] buf = new byte[64 * 1024];
                long left = lengthBytes;
                while (left > 0) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        throw new IOException("the stream ended " + left + " bytes before the end of entry " + hash);
                    }
                    digest.update(buf, 0, n);
                    file.write(buf, 0, n);
                    left -= n;
                }
            }
            String got = ContentHash.hex(digest);
            if (!got.equals(hash)) {
                return "entry " + hash + " arrived with hash " + got;
            }
            Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return null;
        } finally {
            Files.deleteIfExists(part);
        }
    }

    /** Deletes part files whose agent (the pid in the name) is no longer running. */
    private void removeOrphanParts() throws IOException {
        try (DirectoryStream<Path> parts = Files.newDirectoryStream(dir, ".*" + PART)) {
            for (Path p : parts) {
                String name = p.getFileName().toString();
                String[] f = name.substring(1, name.length() - PART.length()).split("\\.");
                long pid;
                try {
                    pid = f.length == 2 ? Long.parseLong(f[1]) : -1;
                } catch (NumberFormatException e) {
                    pid = -1;
                }
                if (pid < 0 || ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
