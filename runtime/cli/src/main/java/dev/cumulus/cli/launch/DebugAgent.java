package dev.cumulus.cli.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;

/**
 * {@code cumulus run --debug NODE[,NODE]}: those nodes start with the JDK's debugger agent (JDWP over a socket on the
 * loopback address), suspended until a debugger attaches or {@link LaunchContext#debugWait()} passes (then the node
 * fails to start). While a node is debugged the other nodes wait longer for it: joining waits as long as the debugger
 * may take, and the heartbeat timeout is at least {@link LaunchContext#DEBUG_HEARTBEAT_TIMEOUT}, since a node stopped
 * at a breakpoint sends no heartbeats.
 */
final class DebugAgent {
    /**
     * The line the launcher prints for each debugged node; the editor reads it to start its attach session once the
     * node's own line {@code [N] Listening for transport dt_socket at address: PORT} says the agent listens.
     */
    static final String LINE_PREFIX = "@cumulus-debug ";

    private DebugAgent() {
    }

    /** The extra JVM arguments of node {@code node}; tells {@code out} where a debugger can attach. */
    static List<String> jvmArguments(LaunchContext ctx, int node, PrintStream out) {
        if (ctx.debugNodes().isEmpty()) {
            return List.of();
        }
        String join = "-Dcumulus.join.timeout.ms=" + (ctx.debugWait().toMillis() + 60_000);
        if (!ctx.debugNodes().contains(node)) {
            return List.of(join);
        }
        int port = freePort();
        out.println("cumulus run: node " + node + " waits up to " + ctx.debugWait().toSeconds() + " s for a debugger on "
            + "127.0.0.1:" + port + " (jdb -attach 127.0.0.1:" + port + ", or a Java attach session in your IDE)");
        out.println(LINE_PREFIX + "node=" + node + " host=127.0.0.1 port=" + port);
        return List.of(join, "-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=127.0.0.1:" + port
            + ",timeout=" + ctx.debugWait().toMillis());
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback address for a debugger", e);
        }
    }
}
