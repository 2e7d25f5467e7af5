package dev.cumulus.cli.launch;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Slurm cluster for system tests, made by {@code scripts/test-slurm.sh}: munge and slurmctld on this machine, a
 * slurmd in each of its test hosts ({@link NamespaceHosts}). {@link #up} skips the calling test (with the script's
 * reason) where this machine cannot host it: not root, or Slurm's or munge's packages missing. The directory must lie
 * outside /tmp and /dev/shm (each host has its own).
 */
final class TestSlurm implements AutoCloseable {
    private static final int EXIT_SKIP = 77;
    private final Path dir;
    private final NamespaceHosts hosts;

    private TestSlurm(Path dir, NamespaceHosts hosts) {
        this.dir = dir;
        this.hosts = hosts;
    }

    /** Starts a cluster of {@code count} nodes, or aborts the test with the reason it cannot. */
    static TestSlurm up(Path dir, int count) throws IOException, InterruptedException {
        NamespaceHosts.Script r = script("up", dir.toString(), Integer.toString(count));
        Assumptions.assumeFalse(r.code() == EXIT_SKIP, () -> "no test Slurm cluster: " + r.output().strip());
        if (r.code() != 0) {
            script("down", dir.toString());
            throw new IllegalStateException("scripts/test-slurm.sh up failed (" + r.code() + "): " + r.output());
        }
        return new TestSlurm(dir, NamespaceHosts.in(dir));
    }

    /** The environment Slurm's commands need to find this cluster. */
    Map<String, String> environment() {
        return Map.of("SLURM_CONF", dir.resolve("slurm.conf").toString());
    }

    /** The Slurm node names, in order (the test hosts host1.. run them). */
    List<String> nodeNames() throws IOException {
        String tag = Files.readString(dir.resolve("tag"), StandardCharsets.UTF_8).strip();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= hosts.names().size(); i++) {
            names.add(tag + "n" + i);
        }
        return names;
    }

    /**
     * What the cluster still holds of earlier runs: jobs and steps Slurm lists, processes in the test hosts other
     * than their sshd and slurmd, and entries of the hosts' own /tmp and /dev/shm.
     */
    List<String> leftovers() throws IOException, InterruptedException {
        List<String> left = new ArrayList<>();
        String jobs = slurm("squeue", "--noheader", "--format=%i %j %T").strip();
        if (!jobs.isEmpty()) {
            left.add("jobs: " + jobs.replace('\n', ';'));
        }
        String steps = slurm("squeue", "--noheader", "--steps", "--format=%i %j").strip();
        if (!steps.isEmpty()) {
            left.add("steps: " + steps.replace('\n', ';'));
        }
        String tag = Files.readString(dir.resolve("tag"), StandardCharsets.UTF_8).strip();
        for (int i = 1; i <= hosts.names().size(); i++) {
            NamespaceHosts.Script pids = NamespaceHosts.run(List.of("ip", "netns", "pids", tag + "h" + i));
            for (String pid : pids.output().split("\\s+")) {
                if (pid.isBlank()) {
                    continue;
                }
                String command = ProcessHandle.of(Long.parseLong(pid)).flatMap(p -> p.info().command()).orElse("");
                if (!command.endsWith("/sshd") && !command.endsWith("/slurmd") && !command.endsWith("/slurmd-wlm")
                        && !command.isEmpty()) {
                    left.add("host" + i + ": process " + pid + " " + command);
                }
            }
            left.addAll(hosts.leftovers(hosts.names().get(i - 1)));
        }
        return left;
    }

    /** Runs a Slurm command against this cluster; its output. */
    String slurm(String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(environment());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        if (p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        NamespaceHosts.Script r = script("down", dir.toString());
        if (r.code() != 0) {
            throw new IllegalStateException("scripts/test-slurm.sh down failed: " + r.output());
        }
    }

    private static NamespaceHosts.Script script(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash",
            NamespaceHosts.repoRoot().resolve("scripts/test-slurm.sh").toString()));
        cmd.addAll(List.of(args));
        return NamespaceHosts.run(cmd);
    }
}
