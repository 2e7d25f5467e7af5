package dev.cumulus.bench;

import dev.cumulus.bench.replication.ReplicationBench;
import dev.cumulus.cli.launch.NamespaceHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * System test of {@code cumulus bench rpc --quick --hosts} and {@code replication --quick --hosts} over two test hosts
 * ({@link NamespaceHosts}): the tables have every row with numbers that parse and the header names the hosts (no
 * timing is checked); an unreachable host is named. After each run nothing is left: no process of the run on any host, nothing in the hosts' /tmp and /dev/shm,
 * no ssh connection directory here. Skipped where this machine cannot host the test hosts (not root, no sshd).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HostsBenchSmokeTest {
    /** label, p50, p99, p50 ratio, p99 ratio, async calls/s, ratio, CPU text. */
    private static final Pattern ROW = Pattern.compile(
        "^  (cumulus rpc|raw aeron udp|udp blocking|java\\.rmi)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)"
            + "\\s+([\\d,]+)\\s+([\\d.]+)\\s+(.*)$");
    private static NamespaceHosts hosts;

    @BeforeAll
    static void startHosts() throws Exception {
        Path dir = Path.of("target", "bench-test-hosts").toAbsolutePath();
        hosts = NamespaceHosts.up(dir, 2);
    }

    @AfterAll
    static void stopHosts() throws Exception {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void quickRpcOverTwoHostsPrintsEveryRowAndLeavesNothing() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        List<String> sshDirsBefore = sshDirectories();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String mark;
        int code;
        try (BenchHosts bh = BenchHosts.open(file, hosts.sshArgs(), 2, new PrintStream(err, true,
                StandardCharsets.UTF_8))) {
            mark = bh.mark();
            code = RpcBench.run(new RpcBench.Options(List.of(2), true, false, "backoff", false), bh,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        assertTrue(Pattern.compile("(?m)^  hosts: .*one-each: host1 \\([\\d.]+\\): 0, host2 \\([\\d.]+\\): 1$")
            .matcher(text).find(), "the header names the hosts and their processes:\n" + text);
        assertTrue(text.contains("\n2 processes\n"), text);
        for (String label : List.of(RpcBench.OURS, RpcBench.AERON_UDP, RpcBench.UDP, RpcBench.RMI)) {
            Matcher m = text.lines().map(ROW::matcher).filter(x -> x.matches() && x.group(1).equals(label))
                .findFirst().orElse(null);
            if (m == null) {
                fail("no row '" + label + "' with numbers in:\n" + text);
            }
            for (int g = 2; g <= 7; g++) {
                Double.parseDouble(m.group(g).replace(",", "")); // parses
            }
            // both processes run in network namespaces of this machine: their CPU time is readable here
            assertTrue(m.group(8).matches(".*\\bp0 \\d+%.*") && m.group(8).matches(".*\\bp1 \\d+%.*"),
                label + ": CPU of both processes expected in:\n" + text);
        }
        assertTrue(text.lines().anyMatch(l -> l.startsWith("  " + RpcBench.SAME_NODE + " ")), text);
        assertEquals(2, text.lines().filter(l -> l.matches("  goal: .*: (MET|NOT MET)")).count(), text);
        assertNothingLeft(mark, sshDirsBefore);
    }

    @Test
    void quickReplicationOverTwoHostsPrintsTableOneAndLeavesNothing() throws Exception {
        Path file = hosts.hostsFile("one-each", "host1\nhost2\n");
        List<String> sshDirsBefore = sshDirectories();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String mark;
        int code;
        try (BenchHosts bh = BenchHosts.open(file, hosts.sshArgs(), 2, new PrintStream(err, true,
                StandardCharsets.UTF_8))) {
            mark = bh.mark();
            code = ReplicationBench.runFromCli(List.of(2), true, "backoff", false, bh,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, text + err);
        assertTrue(text.contains("Table 4 is not run over hosts."), text);
        assertTrue(text.contains("TCP on the hosts' addresses"), text);
        assertTrue(text.contains("Table 1, 2 processes"), text);
        Pattern number = Pattern.compile("[\\d.]+");
        for (String label : List.of("cumulus rpc (migrating run)", "replicated, migrating", "replicated, static",
                ReplicationBench.JGROUPS, ReplicationBench.JGROUPS_RTT)) {
            String row = text.lines().filter(l -> l.startsWith("  " + label + " ")).findFirst().orElse(null);
            if (row == null) {
                fail("no row '" + label + "' in:\n" + text);
            }
            String[] cells = row.substring(2 + label.length()).trim().split("\\s+");
            assertEquals(6, cells.length, label + ": six columns in:\n" + text);
            for (String cell : cells) {
                assertTrue(cell.equals("-") || number.matcher(cell).matches(), label + ": '" + cell + "' in:\n"
                    + text);
            }
            // the write p50 (RPC, completion, JGroups) crossed the network between the hosts
            Double.parseDouble(cells[2]);
        }
        assertNothingLeft(mark, sshDirsBefore);
    }

    @Test
    void anUnreachableHostIsNamedAndNothingIsLeft() throws Exception {
        String absent = hosts.absentAddress();
        Path file = hosts.hostsFile("unreachable", "host1\n" + absent + "\n");
        List<String> sshDirsBefore = sshDirectories();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = BenchMain.run(List.of("rpc", "--quick", "--idle", "backoff", "--nodes", "2", "--hosts",
                file.toString(), "--ssh", hosts.sshArgs()), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(BenchMain.EXIT_USAGE, code, text);
        assertTrue(text.contains("cumulus bench: cannot start on host " + absent + ": ssh could not connect"), text);
        assertNothingLeft(null, sshDirsBefore);
    }

    /** The ssh connection directories in this machine's temporary directory (other work may have some of its own). */
    private static List<String> sshDirectories() throws IOException {
        List<String> dirs = new ArrayList<>();
        try (var here = Files.newDirectoryStream(Path.of(System.getProperty("java.io.tmpdir")), "cumulus-ssh-*")) {
            here.forEach(p -> dirs.add(p.toString()));
        }
        return dirs;
    }

    private static void assertNothingLeft(String mark, List<String> sshDirsBefore)
        throws IOException, InterruptedException {
        List<String> left = new ArrayList<>();
        if (mark != null) {
            ProcessHandle.allProcesses().filter(p -> p.info().arguments().map(a -> List.of(a).contains(mark))
                .orElse(false)).forEach(p -> {
                    left.add("process " + p.pid() + " " + p.info().commandLine().orElse(""));
                    p.destroyForcibly();
                });
        }
        for (String host : hosts.names()) {
            left.addAll(hosts.leftovers(host));
        }
        for (String d : sshDirectories()) {
            // a new one that no live ssh uses is ours (other work on this machine may run ssh with one of its own)
            boolean inUse = ProcessHandle.allProcesses().anyMatch(p -> p.info().arguments()
                .map(a -> String.join(" ", a).contains(d + "/")).orElse(false));
            if (!sshDirsBefore.contains(d) && !inUse) {
                left.add("ssh connection directory " + d);
            }
        }
        assertTrue(left.isEmpty(), "left behind: " + left);
    }
}
