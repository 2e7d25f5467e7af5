package dev.cumulus.cli.standing;

import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.launch.ChildProcesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two client programs at once against a standing cluster of two servers that has none of their classes: each uses a
 * class of the same name with different code, shipped to the servers and loaded in its own name space there.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class NameSpacesSystemTest {
    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        TestClusters.forgetConfigDir();
        ChildProcesses.noneLeftBehind();
    }

    /**
     * The client program: its own Greeter, made on server 1; it meets the other client (files in a directory both
     * see) once both made theirs, and again before leaving, since a client's objects go when it leaves.
     */
    private Path compile(String version) throws Exception {
        Path src = tmp.resolve("src-" + version + "/shipped");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Greeter.java"), """
            package shipped;
            public interface Greeter { String greet(String who); }
            """);
        Files.writeString(src.resolve("GreeterImpl.java"), """
            package shipped;
            public class GreeterImpl implements Greeter {
                public String greet(String who) { return "%s greets " + who + " from " + getClass().getClassLoader().getName(); }
            }
            """.formatted(version));
        Files.writeString(src.resolve("GreetMain.java"), """
            package shipped;
            import dev.cumulus.Cluster;
            import java.nio.file.Files;
            import java.nio.file.Path;
            public class GreetMain {
                public static void main(String[] args) throws Exception {
                    Path meeting = Path.of(args[2]);
                    try (Cluster c = Cluster.join()) {
                        Greeter g = c.remoteNew(GreeterImpl.class, Greeter.class, "greeter-" + args[0], 1);
                        meet(meeting, args[0] + ".up", args[1] + ".up"); // both attached at once
                        System.out.println("result: " + g.greet(args[0]));
                        meet(meeting, args[0] + ".done", args[1] + ".done"); // neither leaves before the other is done
                    }
                }

                /** Says {@code mine}, then waits until the other client said {@code theirs} (at most 90 s). */
                static void meet(Path dir, String mine, String theirs) throws Exception {
                    Files.createFile(dir.resolve(mine));
                    long deadline = System.nanoTime() + 90_000_000_000L;
                    while (!Files.exists(dir.resolve(theirs))) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException("the other client did not say " + theirs + " in 90 s");
                        }
                        Thread.sleep(20);
                    }
                }
            }
            """);
        Path out = tmp.resolve("classes-" + version);
        Files.createDirectories(out);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of("-d", out.toString(), "-cp", System.getProperty("java.class.path")));
        try (var files = Files.list(src)) {
            files.map(Path::toString).forEach(args::add);
        }
        assertEquals(0, javac.run(null, null, null, args.toArray(String[]::new)), "compiling " + version);
        return out;
    }

    private static CompletableFuture<String> attach(Path classes, String me, String other, Path meeting) {
        return CompletableFuture.supplyAsync(() -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = CumulusCli.execute(new String[] {"run", "--attach", "ns", "-cp", classes.toString(),
                    "shipped.GreetMain", me, other, meeting.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            return exit + " " + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        });
    }

    @Test
    void twoClientsRunTheirOwnClassesOfTheSameNameSideBySide() throws Exception {
        TestClusters.useConfigDir(tmp.resolve("cfg"));
        Path v1 = compile("v1");
        Path v2 = compile("v2");
        assertEquals(0, CumulusCli.execute(new String[] {"cluster", "start", "ns", "--nodes", "2"}, System.out,
            System.err));
        ClusterRecord r = ClusterRegistry.ofUser().read("ns").orElseThrow();
        try {
            Path meeting = Files.createDirectories(tmp.resolve("meeting"));
            CompletableFuture<String> one = attach(v1, "v1", "v2", meeting);
            CompletableFuture<String> two = attach(v2, "v2", "v1", meeting);
            String a = one.get(180, TimeUnit.SECONDS);
            String b = two.get(180, TimeUnit.SECONDS);
            assertTrue(a.startsWith("0 ") && a.contains("result: v1 greets v1 from cumulus-client-"), a + "\n--- v2:\n" + b);
            assertTrue(b.startsWith("0 ") && b.contains("result: v2 greets v2 from cumulus-client-"), b + "\n--- v1:\n" + a);
        } finally {
            assertEquals(0, CumulusCli.execute(new String[] {"cluster", "stop", "ns"}, System.out, System.err));
        }
        assertFalse(Files.exists(Path.of(r.driverDir())), "no driver directory left");
        assertFalse(Files.exists(ClusterRegistry.ofUser().stateFile("ns")), "no state file left");
        assertFalse(Files.exists(tmp.resolve("cfg/clusters/ns")), "no cluster directory left");
        try (var shm = Files.list(Path.of(r.driverDir()).getParent())) {
            assertTrue(shm.noneMatch(p -> p.getFileName().toString().contains(r.runId())), "nothing of the run in "
                + Path.of(r.driverDir()).getParent());
        }
        for (long pid : r.serverPids()) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server " + pid + " ended");
        }
    }
}
