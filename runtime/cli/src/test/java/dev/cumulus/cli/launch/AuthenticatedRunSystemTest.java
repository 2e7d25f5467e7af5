package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.GateMain;
import dev.cumulus.internal.auth.OwnerOnly;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.TransportContext;
import io.aeron.Aeron;
import io.aeron.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An authenticated cluster, tried from outside as a stranger on the same host would: two runs at once (one over IPC,
 * one over UDP), their directories owner-only, the secret on no node's command line or environment, and forged frames
 * aimed at a UDP node's port (an old-style frame without a MAC, and sealed-looking frames with a made-up tag) dropped,
 * told with their source address, while both runs go on to the end.
 */
@Timeout(120)
class AuthenticatedRunSystemTest {
    private static final Pattern PID = Pattern.compile("\\[(\\d+)] ready pid=(\\d+)");
    @TempDir
    Path tmp;
    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    @Test
    void twoRunsAtOnceOverIpcAndUdpAreOwnerOnlyKeepTheirSecretAndShrugOffForgedFrames() throws Exception {
        Path gate = tmp.resolve("gate");
        int basePort = freePortPair();
        Started ipc = start(TransportMode.IPC, basePort, gate);
        Started udp = start(TransportMode.UDP, basePort, gate);
        ipc.out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=");
        udp.out.awaitContains(Duration.ofSeconds(60), "[0] ready pid=", "[1] ready pid=");

        for (Started run : List.of(ipc, udp)) {
            Path driverDir = Path.of(run.launcher.driverDirectory());
            assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(driverDir), "driver directory");
            Path runDir = tmp.resolve("runs").resolve(run.launcher.runId());
            assertEquals(OwnerOnly.DIRECTORY, Files.getPosixFilePermissions(runDir), "run directory");
            String secret = run.launcher.secret().line().substring(RunSecret.LINE_PREFIX.length());
            for (long pid : pids(run.out.text())) {
                String cmdline = Files.readString(Path.of("/proc/" + pid + "/cmdline"), StandardCharsets.ISO_8859_1);
                assertTrue(cmdline.contains("-Dcumulus.secret=stdin"), "the node reads its secret from stdin");
                assertFalse(cmdline.contains(secret), "the secret is on node " + pid + "'s command line");
                assertFalse(cmdline.contains(RunSecret.LINE_PREFIX.strip()), cmdline);
                String environ = Files.readString(Path.of("/proc/" + pid + "/environ"), StandardCharsets.ISO_8859_1);
                assertFalse(environ.contains(secret), "the secret is in node " + pid + "'s environment");
            }
        }
        // a stranger on this host aims frames at the UDP run's node 0: it knows the run tag (the run id is in
        // the driver directory's name), the stream ids and the node ids; it does not know the secret
        int runTag = TransportContext.runTagOf(udp.launcher.runId());
        try (DriverHost own = DriverHost.start(tmp.resolve("stranger-" + UUID.randomUUID()).toString());
             Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(own.directory()));
             // node 0's data, with a term length the nodes' drivers accept (they drop setups beyond theirs)
             Publication pub = aeron.addPublication("aeron:udp?term-length=64k|endpoint=127.0.0.1:" + basePort,
                 ClusterLauncher.STREAM_BASE + Channel.DATA.ordinal())) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!pub.isConnected()) {
                assertTrue(System.nanoTime() < deadline, "the stranger's publication never connected");
                Thread.onSpinWait();
            }
            UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
            frame.putByte(0, (byte) 1); // an old whole frame: type, padding, source, run tag, payload
            frame.putInt(4, 1, ByteOrder.LITTLE_ENDIAN);
            frame.putInt(8, runTag, ByteOrder.LITTLE_ENDIAN);
            frame.putStringWithoutLengthAscii(12, "GOODBYE");
            offer(pub, frame, 19);
            frame.putByte(0, (byte) 0x11); // sealed-looking: a counter and a made-up tag
            for (int i = 0; i < 50; i++) {
                frame.putLong(12, 1 + i, ByteOrder.LITTLE_ENDIAN);
                frame.putLong(20, 0xbad_0000L + i);
                frame.putStringWithoutLengthAscii(36, "FAILURE");
                offer(pub, frame, 43);
            }
            udp.err.awaitContains(Duration.ofSeconds(30), "[0] cumulus: node 0 transport: dropped",
                "not decoded; the last from 127.0.0.1:");
        }
        Files.createFile(gate);
        for (Started run : List.of(ipc, udp)) {
            RunResult result = run.running.get(60, TimeUnit.SECONDS);
            assertEquals(0, result.exitCode(), run.err.text());
            assertTrue(run.out.text().contains("[1] done echo from 1"), run.out.text());
        }
        assertFalse(ipc.err.text().contains("dropped"), "the IPC run saw nothing of the other: " + ipc.err.text());
        long lines = udp.err.text().lines().filter(l -> l.contains("transport: dropped")).count();
        assertTrue(lines >= 1 && lines <= 3, "told at most once a second: " + udp.err.text());
    }

    private record Started(ClusterLauncher launcher, CapturedOutput out, CapturedOutput err,
                           CompletableFuture<RunResult> running) {
    }

    private Started start(TransportMode transport, int basePort, Path gate) {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        LaunchContext ctx = new LaunchContext()
            .nodes(2)
            .mainClass(GateMain.class.getName())
            .programArgs(List.of(gate.toString()))
            .classpath(ClusterLauncherSystemTest.TEST_CLASSES)
            .jvmArgs(ClusterLauncherSystemTest.FAST_JVM)
            .runsRoot(tmp.resolve("runs"))
            .transport(transport)
            .basePort(basePort)
            .timeout(Duration.ofSeconds(100))
            .shutdownHook(false);
        ClusterLauncher launcher = new ClusterLauncher(ctx, out.stream(), err.stream());
        launchers.add(launcher);
        // a thread each: the common pool may have one worker on a small box, and the two runs must run at once
        return new Started(launcher, out, err, CompletableFuture.supplyAsync(launcher::run,
            task -> Thread.ofPlatform().name("run-" + transport).start(task)));
    }

    private static List<Long> pids(String out) {
        List<Long> pids = new ArrayList<>();
        Matcher m = PID.matcher(out);
        while (m.find()) {
            pids.add(Long.parseLong(m.group(2)));
        }
        return pids;
    }

    private static void offer(Publication pub, UnsafeBuffer b, int length) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pub.offer(b, 0, length) < 0) {
            assertTrue(System.nanoTime() < deadline, "the stranger's publication took nothing");
            Thread.onSpinWait();
        }
    }

    /** A port P with P + 1 free too, on loopback. */
    private static int freePortPair() throws Exception {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (DatagramSocket a = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
                int p = a.getLocalPort();
                if (p >= 65535) {
                    continue;
                }
                try (DatagramSocket b = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        p + 1))) {
                    return p;
                } catch (java.net.SocketException busy) {
                    // try another
                }
            }
        }
        throw new IllegalStateException("no two free adjacent UDP ports on loopback");
    }
}
