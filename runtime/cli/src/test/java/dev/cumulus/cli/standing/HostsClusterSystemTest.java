package dev.cumulus.cli.standing;

import dev.cumulus.cli.CliRun;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.cumulus.Cluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.launch.NamespaceHosts;
import dev.cumulus.cli.standing.mains.Tally;
import dev.cumulus.cli.standing.mains.TallyImpl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cumulus cluster start --hosts} over two test hosts ({@link NamespaceHosts}: network namespaces with their own
 * sshd, address, /tmp and /dev/shm): a server on each, two clients on this host calling objects on both over UDP (one
 * with classes the cluster's {@code -cp} gives the servers, one with classes only it has, whose objects' output comes
 * back to it and whose profile holds each server's share), a server killed with {@code kill -9} on its host while the other serves on, and {@code cluster stop}
 * leaving nothing on any host; a hosts file with too few slots and an unreachable host are refused with nothing left
 * started. Skipped where this machine cannot host the test hosts (not root, no sshd).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HostsClusterSystemTest {
    @TempDir
    static Path tmp;
    private static NamespaceHosts hosts;
    /**
     * The JVM of a server killed with SIGKILL cannot remove its perf data file ({@code /tmp/hsperfdata_USER/PID}); the
     * host's next JVM of that user does. Not the cluster's to clean.
     */
    private static volatile String killedPerfData = "";

    @BeforeAll
    static void startHosts() throws Exception {
        hosts = NamespaceHosts.up(Path.of("target", "test-hosts-standing").toAbsolutePath(), 2);
        TestClusters.useConfigDir(tmp.resolve("cfg"));
    }

    @AfterAll
    static void stopHosts() throws Exception {
        TestClusters.forgetConfigDir();
        if (hosts != null) {
            hosts.close();
        }
    }

    @AfterEach
    void nothingLeftOnAnyHost() throws Exception {
        List<String> left = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        do { // a host's sshd ends what ran in a session a moment after the session
            left.clear();
            for (String host : hosts.names()) {
                hosts.leftovers(host).stream().filter(l -> !l.matches(killedPerfData)).forEach(left::add);
            }
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        assertTrue(left.isEmpty(), "left behind: " + left);
    }

    /** A jar of the tally classes only: what the cluster's servers get with {@code -cp}. */
    private static Path tallyJar() throws IOException {
        Path jar = tmp.resolve("tally.jar");
        Path classes = Path.of(TestClusters.testClasses());
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            for (Class<?> c : List.of(Tally.class, TallyImpl.class)) {
                String entry = c.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                out.write(Files.readAllBytes(classes.resolve(entry)));
                out.closeEntry();
            }
        }
        return jar;
    }

    /**
     * A client program of classes only it has (compiled here, in this host's /tmp, which the test hosts do not see):
     * an object on each server that prints there, its line to come back to the client's console.
     */
    private static Path shoutingClient() throws IOException {
        Path src = tmp.resolve("src/shout");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Shout.java"), """
            package shout;
            public interface Shout { String shout(String what); }
            """);
        Files.writeString(src.resolve("ShoutImpl.java"), """
            package shout;
            public class ShoutImpl implements Shout {
                public String shout(String what) { System.out.println("hello from " + what); return what + " done"; }
            }
            """);
        Files.writeString(src.resolve("ShoutMain.java"), """
            package shout;
            import dev.cumulus.Cluster;
            public class ShoutMain {
                public static void main(String[] args) {
                    try (Cluster c = Cluster.join()) {
                        for (int server = 0; server < c.size(); server++) {
                            Shout s = c.remoteNew(ShoutImpl.class, Shout.class, "shout-" + server, server);
                            System.out.println("answer: " + s.shout("server " + server));
                        }
                    }
                }
            }
            """);
        Path out = Files.createDirectories(tmp.resolve("shout-classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path")));
        try (var files = Files.list(src)) {
            files.map(Path::toString).forEach(args::add);
        }
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "compiling the client");
        return out;
    }

    private static JsonArray servers(String cluster) {
        JsonObject ps = JsonParser.parseString(CliRun.ok("ps", cluster, "--json").out()).getAsJsonObject();
        return ps.getAsJsonArray("servers");
    }

    @Test
    void aClusterOverTwoHostsServesClientsOfThisHostAndTheRestServesOnWhenARemoteServerIsKilled() throws Exception {
        Path file = hosts.hostsFile("wide", "host1\nhost2\n");
        CliRun started = CliRun.ok("cluster", "start", "wide", "--nodes", "2", "--hosts", file.toString(),
            "--ssh=" + hosts.sshArgs(), "-cp", tallyJar().toString());
        assertTrue(started.out().contains("2 server(s) on host1,host2"), started.out());
        ClusterRecord record = ClusterRegistry.ofUser().read("wide").orElseThrow();
        assertEquals(List.of("host1", "host2"), record.servers().hosts());
        assertTrue(CliRun.ok("cluster", "list").out().contains("host1,host2"));
        try {
            try (Cluster a = Cluster.connect("wide")) {
                Tally onHost1 = a.remoteNew(TallyImpl.class, Tally.class, "on-host1", 0);
                Tally onHost2 = a.remoteNew(TallyImpl.class, Tally.class, "on-host2", 1);
                assertEquals(5, onHost1.add(5));
                assertEquals(7, onHost2.add(7));

                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                Path profile = tmp.resolve("profile");
                int exit = AttachedRun.runProfiled(ClusterRegistry.ofUser(), "wide", shoutingClient().toString(),
                    "shout.ShoutMain", List.of(), List.of(), profile,
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
                String o = out.toString(StandardCharsets.UTF_8);
                assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
                for (int server = 0; server < 2; server++) {
                    assertTrue(o.contains("[shout-" + server + "@server " + server + "] hello from server " + server),
                        "the object's output on server " + server + " came back:\n" + o);
                    assertTrue(o.contains("answer: server " + server + " done"), o);
                    Path recording = profile.resolve("node-" + server + ".jfr");
                    assertTrue(Files.size(recording) > 0, "server " + server + "'s share of the profile came back");
                }
                assertTrue(o.contains("shout-1"), "the profile names the object on host2:\n" + o);

                long pid = servers("wide").get(1).getAsJsonObject().get("pid").getAsLong();
                killedPerfData = "host2:/tmp/hsperfdata_[^/]+/" + pid;
                Process kill = new ProcessBuilder(List.of("ssh", "-F", hosts.sshArgs().substring(3), "-o",
                    "BatchMode=yes", "host2", "kill -9 " + pid)).redirectErrorStream(true).start();
                assertEquals(0, kill.waitFor(), new String(kill.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8));
                NodeFailedException failed = null;
                while (failed == null) { // the server's ssh session ends with it: then every call fails at once
                    try {
                        onHost2.add(1);
                    } catch (NodeFailedException e) {
                        failed = e;
                    }
                }
                assertTrue(failed.getMessage().contains("server 1"), failed.getMessage());
                assertEquals(6, onHost1.add(1), "the server on host1 serves on");
                JsonArray status = servers("wide");
                assertEquals("serving", status.get(0).getAsJsonObject().get("state").getAsString());
                assertEquals("gone", status.get(1).getAsJsonObject().get("state").getAsString());
                assertTrue(CliRun.ok("cluster", "list").out().contains("1/2"));
            }
        } finally {
            CliRun.ok("cluster", "stop", "wide");
        }
        assertFalse(Files.exists(Path.of(record.driverDir())), "the keeper's driver for the clients is gone");
        String mark = "-Dcumulus.run.id=" + record.runId();
        assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().arguments()
            .map(args -> List.of(args).contains(mark)).orElse(false)), "no process of the cluster is left here");
    }

    @Test
    void aHostsFileWithTooFewSlotsIsRefusedBeforeAnythingStarts() throws Exception {
        Path file = hosts.hostsFile("few", "host1\nhost2\n");
        CliRun r = CliRun.of("cluster", "start", "few", "--nodes", "3", "--hosts", file.toString(),
            "--ssh=" + hosts.sshArgs());
        assertEquals(CumulusCli.EXIT_USAGE, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("3") && r.err().contains("slots"), r.err());
        assertTrue(ClusterRegistry.ofUser().read("few").isEmpty(), "no cluster recorded");
    }

    @Test
    void anUnreachableHostIsNamedAndNothingIsLeftStarted() throws Exception {
        String absent = hosts.absentAddress();
        Path file = hosts.hostsFile("unreachable", "host1\n" + absent + "\n");
        CliRun r = CliRun.of("cluster", "start", "lost", "--nodes", "2", "--hosts", file.toString(),
            "--ssh=" + hosts.sshArgs(), "--start-timeout", "60s");
        assertEquals(CumulusCli.EXIT_ERROR, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains("cannot start on host " + absent + ": ssh could not connect"), r.err());
        assertTrue(ClusterRegistry.ofUser().read("lost").isEmpty(), "no cluster recorded");
        Path log = tmp.resolve("cfg/clusters/lost/keeper.log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
            .map(args -> List.of(args).contains("lost") && List.of(args).contains("serve")).orElse(false))) {
            assertTrue(System.nanoTime() < deadline, "the keeper of the failed start still runs; its log:\n"
                + (Files.exists(log) ? Files.readString(log) : "(none)"));
            Thread.onSpinWait();
        }
    }
}
