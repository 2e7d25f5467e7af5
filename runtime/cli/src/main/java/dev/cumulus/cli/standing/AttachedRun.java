package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.launch.ClusterLauncher;
import dev.cumulus.cli.launch.LaunchException;
import dev.cumulus.cli.launch.MainClassCheck;
import dev.cumulus.cli.launch.RuntimeClasspath;
import dev.cumulus.cli.profile.ProfileReport;
import dev.cumulus.internal.auth.OwnerOnly;
import dev.cumulus.internal.service.ClientCluster;
import dev.cumulus.internal.launch.LaunchConfig;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code cumulus run --attach NAME -cp CP MAIN}: runs {@code MAIN} once, in a JVM of its own on this machine, as a
 * client of the standing cluster {@code NAME} ({@code Cluster.join()} there connects to it). Its output goes to this
 * command's output unchanged (with what its objects print on the servers, each line prefixed with the object and its
 * server); it reads this command's standard input; its exit code is the command's. The client JVM ends with this command (a shutdown hook
 * stops it), and the servers survive it.
 */
public final class AttachedRun {
    /**
     * The client's JVM is a node's: the same flags, so its calls cost what a node's do (without the serial collector
     * the JVM picks G1 on most machines, whose barriers and collector threads a client's calls would pay for).
     */
    private static final List<String> JVM_FLAGS = ClusterLauncher.NODE_JVM_FLAGS;

    private AttachedRun() {
    }

    /**
     * @throws LaunchException  when the cluster does not serve or the main class is not there (nothing started)
     * @throws CumulusException when the client's JVM cannot be started
     */
    public static int run(ClusterRegistry registry, String cluster, String classpath, String mainClass,
                          List<String> args, List<String> jvmArgs, PrintStream out, PrintStream err) {
        return run(registry, cluster, classpath, mainClass, args, jvmArgs, ProcessBuilder.Redirect.INHERIT, out, err);
    }

    /**
     * {@code cumulus run --attach NAME --profile}: as {@link #run}, and the client records its own profile into
     * {@code runDir} (default {@code ./cumulus-runs/attach-NAME-<time>}): its JVM's calls, and each server's share
     * recorded for this client alone ({@code node-<server>.jfr}, {@code node-<client>.jfr}), written when the program
     * closes its {@code Cluster}. After the client ends, prints the same per-object report as a profiled run, and the
     * directory.
     */
    public static int runProfiled(ClusterRegistry registry, String cluster, String classpath, String mainClass,
                                  List<String> args, List<String> jvmArgs, Path runDir, PrintStream out,
                                  PrintStream err) {
        Path dir = (runDir != null ? runDir : Path.of("cumulus-runs").resolve("attach-" + cluster + "-"
            + DateTimeFormatter.ofPattern("yyMMdd-HHmmss-SSS").format(LocalDateTime.now()))).toAbsolutePath()
            .normalize();
        try {
            OwnerOnly.createDirectory(dir);
        } catch (CumulusException e) {
            throw new LaunchException("cannot create the run directory " + dir + ": " + e.getMessage()
                + "; choose another with --run-dir");
        }
        List<String> withProfile = new ArrayList<>(jvmArgs);
        withProfile.add("-D" + ClientCluster.PROFILE_PROPERTY + "=" + dir);
        int code = run(registry, cluster, classpath, mainClass, args, withProfile, ProcessBuilder.Redirect.INHERIT,
            out, err);
        ProfileReport report = ProfileReport.read(dir);
        if (report.recordings().isEmpty()) {
            err.println("cumulus: no profile in " + dir + ": the client writes it when its program closes its Cluster "
                + "(try (Cluster cluster = Cluster.join()) { ... })");
        } else {
            report.print(out);
        }
        err.println("cumulus: attached run directory: " + dir);
        return code;
    }

    /**
     * As the other {@code run}, with the client's standard input from {@code stdin} (this command's own, or a file):
     * what the client's objects read with {@code RemoteIO.stdin()} on the servers.
     */
    public static int run(ClusterRegistry registry, String cluster, String classpath, String mainClass,
                          List<String> args, List<String> jvmArgs, ProcessBuilder.Redirect stdin, PrintStream out,
                          PrintStream err) {
        ClusterRecord record = registry.read(cluster).orElseThrow(() -> new LaunchException("--attach: there is no "
            + "standing cluster " + cluster + "; start one with 'cumulus cluster start " + cluster + " --nodes N'"));
        if (!record.alive()) {
            throw new LaunchException("--attach: cluster " + cluster + " is stale (its keeper, pid "
                + record.keeperPid() + ", is gone); 'cumulus cluster stop " + cluster + "' cleans it up");
        }
        List<Path> entries = new ArrayList<>(RuntimeClasspath.entries());
        entries.addAll(userEntries(classpath));
        MainClassCheck.check(mainClass, entries, classpath);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(jvmArgs);
        cmd.add("-D" + LaunchConfig.ATTACH + "=" + cluster);
        cmd.add("-D" + ClusterRegistry.CONFIG_DIR_PROPERTY + "=" + registry.configDir());
        cmd.add("-cp");
        cmd.add(String.join(File.pathSeparator, entries.stream().map(Path::toString).toList()));
        cmd.add(mainClass);
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectInput(stdin);
        Process client;
        try {
            client = pb.start();
        } catch (IOException e) {
            throw new CumulusException("cannot start the client's JVM (" + cmd.getFirst() + "): " + e.getMessage(), e);
        }
        Thread hook = new Thread(client::destroy, "cumulus-attach-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Thread o = copy(client.getInputStream(), out, "cumulus-attach-out");
        Thread e = copy(client.getErrorStream(), err, "cumulus-attach-err");
        try {
            int code = client.waitFor();
            o.join();
            e.join();
            return code;
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            client.destroyForcibly();
            return 130;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down: the hook runs
            }
            out.flush();
            err.flush();
        }
    }

    private static Thread copy(InputStream in, PrintStream to, String name) {
        return Thread.ofPlatform().daemon().name(name).start(() -> {
            byte[] b = new byte[8192];
            try (in) {
                for (int n; (n = in.read(b)) > 0; ) {
                    to.write(b, 0, n);
                    to.flush();
                }
            } catch (IOException ignored) {
                // the client ended
            }
        });
    }

    /** The user's classpath as paths, {@code dir/*} as the jars in it. */
    static List<Path> userEntries(String classpath) {
        List<Path> paths = new ArrayList<>();
        if (classpath == null) {
            return paths;
        }
        for (String entry : classpath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
                Path dir = Path.of(entry.substring(0, entry.length() - 1)).toAbsolutePath().normalize();
                try (Stream<Path> s = Files.list(dir)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().forEach(paths::add);
                } catch (IOException | UncheckedIOException ex) {
                    throw new LaunchException("classpath entry " + entry + ": cannot list " + dir);
                }
            } else {
                paths.add(Path.of(entry).toAbsolutePath().normalize());
            }
        }
        return paths;
    }
}
