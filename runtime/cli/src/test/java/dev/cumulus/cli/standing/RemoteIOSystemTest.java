package dev.cumulus.cli.standing;

import dev.cumulus.cli.launch.ChildProcesses;
import shipped.remoteio.DyingReaderMain;
import shipped.remoteio.RemoteIOMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Remote I/O of a client's objects on two real servers that have none of its classes: what they print reaches the
 * client's console prefixed and in order per object, and they read and write the client's files, standard input and
 * a connection from the client's host.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RemoteIOSystemTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void startCluster() {
        TestClusters.start(tmp.resolve("cfg"), "io", 2, null);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        try {
            TestClusters.stop("io");
        } finally {
            ChildProcesses.noneLeftBehind();
        }
    }

    @Test
    void aClientsObjectsUseItsConsoleFilesStdinAndNetwork() throws Exception {
        Path in = Files.writeString(tmp.resolve("in.txt"), "from the client's disk");
        Path written = tmp.resolve("out.txt");
        Path stdin = Files.writeString(tmp.resolve("stdin.txt"), "typed on the client\nmore\n");
        try (ServerSocket echo = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = echo.accept()) {
                    String line = new BufferedReader(new InputStreamReader(s.getInputStream(),
                        StandardCharsets.UTF_8)).readLine();
                    s.getOutputStream().write(("pong to " + line + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (Exception ignored) {
                    // the test's assertion on the answer tells
                }
            });
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            String cp = new File(RemoteIOMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getPath();
            int exit = AttachedRun.run(ClusterRegistry.ofUser(), "io", cp, RemoteIOMain.class.getName(),
                List.of(in.toString(), written.toString(), tmp.resolve("missing.txt").toString(),
                    Integer.toString(echo.getLocalPort())), List.of(),
                ProcessBuilder.Redirect.from(stdin.toFile()), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8);
            String e = err.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, o + e);

            List<String> lines = o.lines().toList();
            for (String tag : List.of("A", "B")) {
                String prefix = "[echo-" + tag.toLowerCase() + "@server " + (tag.equals("A") ? 1 : 0) + "] ";
                List<String> mine = lines.stream().filter(l -> l.startsWith(prefix)).toList();
                for (int i = 0; i < 200; i++) {
                    assertEquals(prefix + tag + " line " + i, mine.get(i), "in order per object:\n" + o);
                }
                assertEquals(prefix + tag + " unfinished", mine.get(200), "the call's end ends the line it left open:\n" + o);
                assertTrue(e.contains(prefix + tag + " to stderr"), "standard error to the client's:\n" + e);
            }
            assertTrue(lines.stream().allMatch(l -> !l.contains("line") || l.startsWith("[echo-")),
                "no line mixed with another:\n" + o);
            assertTrue(o.contains("read: from the client's disk"), o);
            assertEquals("written by echo-a", Files.readString(written));
            assertTrue(o.contains("missing: IOException: ") && o.contains("missing.txt"),
                "the client's error as an IOException:\n" + o);
            assertTrue(o.contains("stdin: typed on the client"), o);
            assertTrue(o.contains("asked: pong to ping"), o);
            assertTrue(o.contains("own thread: IOException: RemoteIO cannot open file") && o.contains("runs for no "
                + "client"), "a thread the object started itself is refused:\n" + o);
        }
    }

    @Test
    void anObjectWaitingOnItsClientsIoIsReleasedWhenTheClientDies() throws Exception {
        Path marker = tmp.resolve("released.txt");
        String cp = new File(DyingReaderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .getPath();
        int exit = AttachedRun.run(ClusterRegistry.ofUser(), "io", cp, DyingReaderMain.class.getName(),
            List.of(marker.toString()), List.of(), ProcessBuilder.Redirect.PIPE,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System.err);
        assertEquals(7, exit, "the client halted as its object's line arrived");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(marker)) { // the servers learn of the exit from the OS; the call waiting on it fails
            assertTrue(System.nanoTime() < deadline, "the object still waits on its dead client after 60 s");
            Thread.onSpinWait();
        }
        String said = "";
        while (!said.startsWith("released: ")) { // written whole a moment after it appears
            assertTrue(System.nanoTime() < deadline, "the marker was not written whole: " + said);
            said = Files.readString(marker);
        }
        assertTrue(said.contains("client"), said);
    }
}
