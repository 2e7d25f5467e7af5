package dev.cumulus.bench;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test hosts for {@code cumulus bench --hosts}: {@code scripts/test-hosts.sh} makes them, network namespaces of this
 * machine each with its own address, sshd, /tmp and /dev/shm. {@link #up} skips the calling test (with the script's
 * reason) where this machine cannot host them: not root, or sshd/iproute2 missing. The directory lies under the
 * module's {@code target}, outside /tmp and /dev/shm (each host has its own).
 */
final class NamespaceHosts implements AutoCloseable {
    private static final int EXIT_SKIP = 77;
    private final Path dir;
    private final List<String> names;

    private NamespaceHosts(Path dir, List<String> names) {
        this.dir = dir;
        this.names = names;
    }

    /** Starts {@code count} hosts ({@code host1..}), or aborts the test with the reason it cannot. */
    static NamespaceHosts up(Path dir, int count) throws IOException, InterruptedException {
        Result r = script("up", dir.toString(), Integer.toString(count));
        Assumptions.assumeFalse(r.code() == EXIT_SKIP, () -> "no test hosts: " + r.output().strip());
        if (r.code() != 0) {
            script("down", dir.toString());
            throw new IllegalStateException("scripts/test-hosts.sh up failed (" + r.code() + "): " + r.output());
        }
        return new NamespaceHosts(dir, Files.readAllLines(dir.resolve("hosts"), StandardCharsets.UTF_8));
    }

    List<String> names() {
        return names;
    }

    /** The ssh options that reach the hosts. */
    String sshArgs() {
        return "-F " + dir.resolve("ssh_config");
    }

    /** An address on the hosts' network that no host has. */
    String absentAddress() throws IOException {
        String config = Files.readString(dir.resolve("ssh_config"), StandardCharsets.UTF_8);
        int at = config.indexOf("HostName ") + "HostName ".length();
        String first = config.substring(at, config.indexOf('\n', at)).trim();
        return first.substring(0, first.lastIndexOf('.')) + ".250";
    }

    /** Writes a hosts file into the hosts' directory. */
    Path hostsFile(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    /** What {@code host} has left in its own /tmp and /dev/shm, except the JVM's {@code hsperfdata_<user>}. */
    List<String> leftovers(String host) throws IOException, InterruptedException {
        Result r = run(List.of("ssh", "-F", dir.resolve("ssh_config").toString(), "-o", "BatchMode=yes", host,
            "cd / && find /tmp /dev/shm -mindepth 1 -maxdepth 2"));
        if (r.code() != 0) {
            throw new IllegalStateException("cannot list " + host + "'s /tmp and /dev/shm: " + r.output());
        }
        List<String> left = new ArrayList<>();
        for (String line : r.output().split("\n")) {
            if (!line.isBlank() && !line.matches("/tmp/hsperfdata_[^/]+")) {
                left.add(host + ":" + line.strip());
            }
        }
        return left;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Result r = script("down", dir.toString());
        if (r.code() != 0) {
            throw new IllegalStateException("scripts/test-hosts.sh down failed: " + r.output());
        }
    }

    private record Result(int code, String output) {
    }

    private static Result script(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", repoRoot().resolve("scripts/test-hosts.sh").toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static Path repoRoot() {
        Path d = Path.of("").toAbsolutePath();
        while (d != null && !Files.isRegularFile(d.resolve("scripts/test-hosts.sh"))) {
            d = d.getParent();
        }
        if (d == null) {
            throw new IllegalStateException("no scripts/test-hosts.sh above " + Path.of("").toAbsolutePath());
        }
        return d;
    }
}
