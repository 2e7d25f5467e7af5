package dev.cumulus.internal.auth;

import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On one host the user is the boundary: the run's Aeron directory and what is in it are for its owner only. */
@Timeout(60)
class OwnerOnlyTest {
    @TempDir
    Path tmp;

    @Test
    void processesCreatingTheSameDirectoryAtOnceAllGetIt() throws Exception {
        for (int round = 0; round < 50; round++) {
            Path dir = tmp.resolve("clients-" + round);
            int threads = 4;
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<Path>> made = new ArrayList<>();
            try (var pool = Executors.newFixedThreadPool(threads)) {
                for (int t = 0; t < threads; t++) {
                    made.add(pool.submit(() -> {
                        start.await();
                        return OwnerOnly.createDirectory(dir);
                    }));
                }
                for (var f : made) {
                    assertEquals(dir, f.get(), "every one of them gets the directory, none an error");
                }
            }
            assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(dir));
        }
    }

    @Test
    void aDriverDirectoryAndWhatTheDriverAndNodesPutInItAreOwnerOnly() throws Exception {
        String dir = tmp.resolve("cumulus-perm-" + UUID.randomUUID()).toString();
        try (DriverHost driver = DriverHost.start(dir, true)) {
            TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 5000, 3,
                TransportContext.DEFAULT_DATA_TERM_LENGTH, 1 << 20);
            try (NodeTransport a = new NodeTransport(ctx, 0, 2, (s, c, b, o, l) -> { });
                 NodeTransport b = new NodeTransport(ctx, 1, 2, (s, c, bf, o, l) -> { })) {
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (!(a.isConnected(1, Channel.DATA) && b.isConnected(0, Channel.DATA))) {
                    a.poll(16);
                    b.poll(16);
                    assertTrue(System.nanoTime() < deadline, "the nodes did not connect");
                }
                Path root = Path.of(dir);
                assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(root), "the driver directory");
                List<String> open = new ArrayList<>();
                List<String> logBuffers = new ArrayList<>();
                try (Stream<Path> s = Files.walk(root)) {
                    s.forEach(p -> {
                        Set<PosixFilePermission> perms = perms(p);
                        boolean others = perms.stream().anyMatch(x -> x.name().startsWith("GROUP")
                            || x.name().startsWith("OTHERS"));
                        if (Files.isDirectory(p) && others) {
                            open.add(root.relativize(p) + " " + perms); // a directory another user could enter
                        }
                        if (p.toString().endsWith(".logbuffer")) {
                            logBuffers.add(p.toString());
                        }
                    });
                }
                assertEquals(List.of(), open, "every directory in the driver's tree is owner-only");
                assertFalse(logBuffers.isEmpty(), "the nodes' log buffers are in the tree");
                try (Stream<Path> s = Files.list(root)) {
                    s.filter(Files::isRegularFile).forEach(p -> assertEquals(OwnerOnly.FILE, perms(p), p.toString()));
                }
            }
        }
    }

    @Test
    void anExistingDirectoryIsMadeOwnerOnly() throws Exception {
        Path d = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(d, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        OwnerOnly.createDirectory(d);
        assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(d));
        Path fresh = OwnerOnly.createDirectory(tmp.resolve("a/b/run"));
        assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(fresh));
    }

    private static Set<PosixFilePermission> perms(Path p) {
        try {
            return Files.getPosixFilePermissions(p);
        } catch (java.io.IOException e) {
            return Set.of(); // gone meanwhile
        }
    }
}
