package dev.cumulus.cli.launch;

import dev.cumulus.internal.cloud.AgentLoader;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test hosts for {@code cumulus run --hosts} and {@code cumulus bench --hosts} (the bench's tests use this class
 * from this module's test jar): {@code scripts/test-hosts.sh} makes them, network namespaces each with
 * its own address, sshd, /tmp, /dev/shm and ~/.cache, and an empty {@link #programDir()}. {@link #up} skips the calling test (with the script's reason) where this
 * machine cannot host them: not root, or sshd/iproute2 missing. The directory must lie outside /tmp and /dev/shm
 * (each host has its own): it is under the module's {@code target}.
 */
public final class NamespaceHosts implements AutoCloseable {
    private static final int EXIT_SKIP = 77;
    private final Path dir;
    private final List<String> names;
    /** The agent-jar property before {@link #up} set it, restored by {@link #close}; {@code ""} when it was unset. */
    private String agentJarBefore;

    private NamespaceHosts(Path dir, List<String> names) {
        this.dir = dir;
        this.names = names;
    }

    /**
     * Starts {@code count} hosts ({@code host1..}), or aborts the test with the reason it cannot. The hosts see this
     * machine's files except /tmp, so the agent must be a jar outside it, as in an installation: when the agent jar
     * this JVM found is under /tmp, a copy in {@code dir} is named instead until {@link #close}.
     */
    public static NamespaceHosts up(Path dir, int count) throws IOException, InterruptedException {
        Script r = script("up", dir.toString(), Integer.toString(count));
        Assumptions.assumeFalse(r.code() == EXIT_SKIP, () -> "no test hosts: " + r.output().strip());
        if (r.code() != 0) {
            script("down", dir.toString());
            throw new IllegalStateException("scripts/test-hosts.sh up failed (" + r.code() + "): " + r.output());
        }
        NamespaceHosts hosts = new NamespaceHosts(dir, Files.readAllLines(dir.resolve("hosts"), StandardCharsets.UTF_8));
        Path agent = AgentLoader.agentJar();
        if (agent.startsWith(System.getProperty("java.io.tmpdir"))) {
            Path copy = dir.resolve("cumulus-agent.jar");
            Files.copy(agent, copy, StandardCopyOption.REPLACE_EXISTING);
            hosts.agentJarBefore = System.getProperty(AgentLoader.JAR_PROPERTY, "");
            System.setProperty(AgentLoader.JAR_PROPERTY, copy.toString());
        }
        return hosts;
    }

    /** The hosts another script started in {@code dir} ({@code scripts/test-slurm.sh}); closing them stops them. */
    static NamespaceHosts in(Path dir) throws IOException {
        return new NamespaceHosts(dir, Files.readAllLines(dir.resolve("hosts"), StandardCharsets.UTF_8));
    }

    public List<String> names() {
        return names;
    }

    /** The ssh options that reach the hosts: {@code -F <dir>/ssh_config}. */
    public String sshArgs() {
        return "-F " + dir.resolve("ssh_config");
    }

    /** An ssh configuration like the hosts' own, but with a key that no host accepts. */
    String sshArgsWithRefusedKey() throws IOException, InterruptedException {
        Path key = dir.resolve("refused_key");
        if (!Files.exists(key)) {
            run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()));
        }
        String config = Files.readString(dir.resolve("ssh_config"), StandardCharsets.UTF_8)
            .replace(dir.resolve("id_ed25519").toString(), key.toString());
        Path file = dir.resolve("ssh_config_refused");
        Files.writeString(file, config, StandardCharsets.UTF_8);
        return "-F " + file;
    }

    /** An address on the hosts' network that no host has (packets to it stay on the test bridge). */
    public String absentAddress() throws IOException {
        String config = Files.readString(dir.resolve("ssh_config"), StandardCharsets.UTF_8);
        int at = config.indexOf("HostName ") + "HostName ".length();
        String first = config.substring(at, config.indexOf('\n', at)).trim();
        return first.substring(0, first.lastIndexOf('.')) + ".250";
    }

    /**
     * Host {@code host} ({@code hostN}) stops sending UDP datagrams: a one-way network partition for the run's traffic
     * between hosts, while ssh (TCP) still reaches it. {@link #heal} undoes it.
     */
    void cut(String host) throws IOException, InterruptedException {
        Script r = script("cut", dir.toString(), host.substring("host".length()));
        if (r.code() != 0) {
            throw new IllegalStateException("scripts/test-hosts.sh cut " + host + " failed: " + r.output());
        }
    }

    /**
     * Host {@code host} drops every packet in and out (but its loopback's): to the others it is as a host that died.
     * Its sshd ends its sessions once their keep-alives go unanswered (6 s), so what runs there stops then.
     */
    void isolate(String host) throws IOException, InterruptedException {
        Script r = script("isolate", dir.toString(), host.substring("host".length()));
        if (r.code() != 0) {
            throw new IllegalStateException("scripts/test-hosts.sh isolate " + host + " failed: " + r.output());
        }
    }

    /** Undoes {@link #cut} and {@link #isolate}. */
    void heal(String host) throws IOException, InterruptedException {
        script("heal", dir.toString(), host.substring("host".length()));
    }

    /** A directory of the launching host that is empty on every test host (a tmpfs over it there). */
    Path programDir() {
        return dir.resolve("program");
    }

    /** Whether {@code host} sees a file at {@code path}. */
    boolean sees(String host, Path path) throws IOException, InterruptedException {
        Script r = run(List.of("ssh", "-F", dir.resolve("ssh_config").toString(), "-o", "BatchMode=yes", host,
            "test -e " + Ssh.quote(path.toString()) + " && echo yes || echo no"));
        if (r.code() != 0) {
            throw new IllegalStateException("cannot look for " + path + " on " + host + ": " + r.output());
        }
        return r.output().strip().equals("yes");
    }

    /** Writes a hosts file into the hosts' directory. */
    public Path hostsFile(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    /**
     * What host {@code host} has left in its own /tmp and /dev/shm: every entry, except the JVM's empty
     * {@code hsperfdata_<user>} directory.
     */
    public List<String> leftovers(String host) throws IOException, InterruptedException {
        Script r = run(List.of("ssh", "-F", dir.resolve("ssh_config").toString(), "-o", "BatchMode=yes", host,
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
        if (agentJarBefore != null) {
            if (agentJarBefore.isEmpty()) {
                System.clearProperty(AgentLoader.JAR_PROPERTY);
            } else {
                System.setProperty(AgentLoader.JAR_PROPERTY, agentJarBefore);
            }
        }
        Script r = script("down", dir.toString());
        if (r.code() != 0) {
            throw new IllegalStateException("scripts/test-hosts.sh down failed: " + r.output());
        }
    }

    record Script(int code, String output) {
    }

    private static Script script(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", repoRoot().resolve("scripts/test-hosts.sh").toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    static Script run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.PIPE)
            .start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("timed out: " + cmd);
        }
        return new Script(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    static Path repoRoot() {
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
