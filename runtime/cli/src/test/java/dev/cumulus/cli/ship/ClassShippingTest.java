package dev.cumulus.cli.ship;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shipping protocol end to end: {@link ClassSender} and {@link ClassReceiver} over a pair of pipes, with a real
 * cache directory: what is sent, what is cached, and what is refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClassShippingTest {
    @TempDir
    Path tmp;

    @Test
    void theFirstShipmentSendsEverythingTheSecondNothingAndAChangeOnlyItsEntry() throws Exception {
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes.resolve("app"));
        Files.writeString(classes.resolve("app/Main.class"), "main v1");
        Files.writeString(classes.resolve("greeting.txt"), "hello");
        Path jar = tmp.resolve("lib.jar");
        Files.writeString(jar, "not really a jar, shipped as bytes");
        Path cacheDir = tmp.resolve("home/.cache/cumulus/classes");

        ClassSender.Shipment first = ship(List.of(classes, jar), cacheDir);
        assertEquals(2, first.sentEntries());
        assertEquals(2, first.classpath().size());
        Path packed = Path.of(first.classpath().get(0));
        assertEquals(cacheDir.toAbsolutePath(), packed.getParent());
        try (JarFile j = new JarFile(packed.toFile())) {
            assertEquals("hello", new String(j.getInputStream(j.getEntry("greeting.txt")).readAllBytes(),
                StandardCharsets.UTF_8), "resources travel with the classes");
            assertTrue(j.getEntry("app/Main.class") != null);
        }
        assertEquals(Files.readString(jar), Files.readString(Path.of(first.classpath().get(1))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cacheDir)));

        Files.setLastModifiedTime(classes.resolve("greeting.txt"), FileTime.fromMillis(42_000)); // not a change
        ClassSender.Shipment second = ship(List.of(classes, jar), cacheDir);
        assertEquals(0, second.sentEntries());
        assertEquals(0, second.sentBytes());
        assertEquals(first.classpath(), second.classpath());

        Files.writeString(classes.resolve("app/Main.class"), "main v2");
        ClassSender.Shipment third = ship(List.of(classes, jar), cacheDir);
        assertEquals(1, third.sentEntries());
        assertEquals(Files.size(Path.of(third.classpath().get(0))), third.sentBytes());
        assertFalse(third.classpath().get(0).equals(first.classpath().get(0)));
        assertEquals(first.classpath().get(1), third.classpath().get(1));
        try (var s = Files.list(cacheDir)) {
            assertEquals(3, s.count(), "no part files left, three entries");
        }
    }

    @Test
    void aLargeTransferSaysHowMuchGoesWhere() throws Exception {
        Path jar = tmp.resolve("big.jar");
        byte[] bytes = new byte[(int) ClassSender.PROGRESS_BYTES + 1];
        new java.util.Random(7).nextBytes(bytes);
        Files.write(jar, bytes);
        List<String> progress = new ArrayList<>();
        ClassSender.Shipment s = ship(ClassManifest.of(List.of(jar), tmp), tmp.resolve("cache"), progress);
        assertEquals(1, s.sentEntries());
        assertEquals(List.of("shipping 4.0 MiB of classes to testhost …"), progress);
        assertEquals(ContentHash.of(jar), ContentHash.of(Path.of(s.classpath().getFirst())));
    }

    @Test
    void anEntryThatChangedOnTheWayIsNotCached() throws Exception {
        Path jar = tmp.resolve("lib.jar");
        Files.writeString(jar, "original bytes");
        ClassManifest manifest = ClassManifest.of(List.of(jar), tmp);
        Files.writeString(jar, "tampered bytes"); // same length, other bytes
        Path cacheDir = tmp.resolve("cache");
        IOException e = assertThrows(IOException.class, () -> ship(manifest, cacheDir));
        assertTrue(e.getMessage().contains("arrived with hash " + ContentHash.of(jar)), e.getMessage());
        try (var s = Files.list(cacheDir)) {
            assertEquals(0, s.count(), "nothing cached, no part file left");
        }
    }

    @Test
    void aCacheOthersCanWriteIsRefusedWithWhatToDo() throws Exception {
        Path cacheDir = tmp.resolve("shared");
        Files.createDirectory(cacheDir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
            "rwxrwxrwx")));
        Files.setPosixFilePermissions(cacheDir, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path jar = tmp.resolve("lib.jar");
        Files.writeString(jar, "bytes");
        IOException e = assertThrows(IOException.class, () -> ship(List.of(jar), cacheDir));
        assertTrue(e.getMessage().contains("the class cache " + cacheDir + " is not") && e.getMessage().contains(
            "chmod 700"), e.getMessage());
    }

    @Test
    void theReceiverRefusesNamesThatAreNotHashesAndLengthsOutOfBounds() {
        for (String manifest : List.of("classes 1\n../../etc/passwd 5\n", "classes 1\n" + "a".repeat(64) + " -1\n",
            "classes 1\n" + "a".repeat(64) + " 99999999999\n", "classes 5000\n", "classes 1\n" + "x".repeat(9000))) {
            InputStream in = new ByteArrayInputStream(manifest.getBytes(StandardCharsets.UTF_8));
            String first = manifest.substring(0, manifest.indexOf('\n'));
            try {
                in.skipNBytes(first.length() + 1);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertThrows(IOException.class, () -> ClassReceiver.receive(first, in, out,
                () -> new ClassReceiver.CacheOrError(null, "must not be opened")), manifest);
            assertEquals(0, out.size(), "nothing answered to " + manifest);
        }
    }

    @Test
    void aDirectoryPacksToTheSameBytesWhateverItsFilesTimes() throws Exception {
        Path dir = tmp.resolve("d");
        Files.createDirectories(dir.resolve("b/c"));
        Files.writeString(dir.resolve("b/c/X.class"), "x");
        Files.writeString(dir.resolve("a.properties"), "k=v");
        DirectoryJar.pack(dir, tmp.resolve("one.jar"));
        Files.setLastModifiedTime(dir.resolve("b/c/X.class"), FileTime.fromMillis(1_000_000));
        Files.setLastModifiedTime(dir.resolve("b"), FileTime.fromMillis(2_000_000));
        DirectoryJar.pack(dir, tmp.resolve("two.jar"));
        assertEquals(ContentHash.of(tmp.resolve("one.jar")), ContentHash.of(tmp.resolve("two.jar")));
    }

    private ClassSender.Shipment ship(List<Path> classpath, Path cacheDir) throws Exception {
        Path pack = Files.createTempDirectory(tmp, "pack");
        return ship(ClassManifest.of(classpath, pack), cacheDir);
    }

    private static ClassSender.Shipment ship(ClassManifest manifest, Path cacheDir) throws Exception {
        List<String> progress = new ArrayList<>();
        ClassSender.Shipment s = ship(manifest, cacheDir, progress);
        assertTrue(progress.isEmpty(), "small shipments print no progress: " + progress);
        return s;
    }

    /** Ships over pipes to a receiver on its own thread, as the host agent runs it. */
    private static ClassSender.Shipment ship(ClassManifest manifest, Path cacheDir, List<String> progress)
        throws Exception {
        PipedOutputStream toHost = new PipedOutputStream();
        PipedInputStream hostIn = new PipedInputStream(toHost, 64 * 1024);
        PipedOutputStream hostOut = new PipedOutputStream();
        PipedInputStream fromHost = new PipedInputStream(hostOut, 64 * 1024);
        CompletableFuture<Void> host = CompletableFuture.runAsync(() -> {
            try (InputStream in = hostIn; OutputStream out = hostOut) {
                String first = ShipProtocol.readLine(in);
                ClassReceiver.receive(first, in, out, () -> {
                    try {
                        return new ClassReceiver.CacheOrError(ClassCache.open(cacheDir), null);
                    } catch (IOException e) {
                        return new ClassReceiver.CacheOrError(null, e.getMessage());
                    }
                });
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofPlatform().name("test-host-agent").start(r));
        try {
            return ClassSender.ship(manifest, "testhost", fromHost, toHost, progress::add);
        } finally {
            toHost.close();
            host.get(30, TimeUnit.SECONDS);
        }
    }
}
