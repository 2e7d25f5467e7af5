package dev.cumulus.cli.launch;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostsFileTest {
    private static final Path FILE = Path.of("hosts.txt");

    @Test
    void readsHostsSlotsAndCommentsAndPlacesNodesInOrder() {
        HostsFile f = HostsFile.parse(FILE, List.of("# cluster", "", "alpha slots=2", "  beta   # one slot",
            "user@gamma slots=3"));
        assertEquals(List.of(new HostsFile.Host("alpha", 2, 3), new HostsFile.Host("beta", 1, 4),
            new HostsFile.Host("user@gamma", 3, 5)), f.hosts());
        assertEquals(6, f.slots());
        assertArrayEquals(new int[] {0, 0, 1, 2}, f.place(4));
        assertArrayEquals(new int[] {0, 0, 1, 2, 2, 2}, f.place(6));
    }

    @Test
    void aHostMayNameItsJava() {
        HostsFile f = HostsFile.parse(FILE, List.of("alpha java=/opt/jdk-25/bin/java slots=2", "beta"));
        assertEquals(List.of(new HostsFile.Host("alpha", 2, 1, "/opt/jdk-25/bin/java"),
            new HostsFile.Host("beta", 1, 2)), f.hosts());
        assertBad(List.of("a java=jdk/bin/java"), "hosts.txt:1: java=jdk/bin/java is not an absolute path");
        assertBad(List.of("localhost java=/opt/java"), "hosts.txt:1: java= is for other hosts");
        assertBad(List.of("a slots=1 slots=2"), "hosts.txt:1: unexpected 'slots=2'");
    }

    @Test
    void badLinesAreNamedWithFileAndLine() {
        assertBad(List.of("a", "b slots=0"), "hosts.txt:2: slots=0 is outside 1..64");
        assertBad(List.of("a slots=x"), "hosts.txt:1: slots=x is not a number");
        assertBad(List.of("a cores=2"), "hosts.txt:1: unexpected 'cores=2'");
        assertBad(List.of("-oProxyCommand=x"), "hosts.txt:1: '-oProxyCommand=x' is not a host name");
        assertBad(List.of("a", "# b", "a slots=2"), "hosts.txt:3: host a is listed again (first on line 1)");
        assertBad(List.of("# nothing"), "lists no host");
    }

    @Test
    void moreNodesThanSlotsIsRefused() {
        HostsFile f = HostsFile.parse(FILE, List.of("a slots=2", "b"));
        LaunchException e = assertThrows(LaunchException.class, () -> f.place(4));
        assertTrue(e.getMessage().contains("--nodes 4 is more than the 3 slots of hosts.txt"), e.getMessage());
    }

    @Test
    void sshQuotesEveryWordForTheRemoteShell() {
        Ssh ssh = Ssh.of(" -F cfg  -p 2222 ");
        assertEquals(List.of("ssh", "-F", "cfg", "-p", "2222", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
            "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "--", "h", "exec 'java' 'a b' 'it'\\''s'"), ssh.command("h", List.of("java", "a b", "it's")));
        assertEquals(List.of("ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
            "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3", "-o", "ControlMaster=auto",
            "-o", "ControlPath=/run/x/%C", "-o", "ControlPersist=no", "--", "h", "true"),
            Ssh.of(null).sharingConnectionsIn(Path.of("/run/x")).command("h", "true"));
    }

    private static void assertBad(List<String> lines, String message) {
        LaunchException e = assertThrows(LaunchException.class, () -> HostsFile.parse(FILE, lines));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
