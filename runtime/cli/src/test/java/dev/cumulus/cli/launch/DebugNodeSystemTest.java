package dev.cumulus.cli.launch;

import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.RingCallsMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cumulus run --debug 1}: node 1 waits for a debugger, the others for node 1; a real JDI client attaches. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DebugNodeSystemTest {
    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @Test
    void aDebuggedNodeWaitsForTheDebuggerAndTheRunGoesOnOnceItResumes() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        LaunchContext ctx = new LaunchContext().nodes(3).mainClass(RingCallsMain.class.getName())
            .classpath(location(RingCallsMain.class)).debugNodes(Set.of(1)).runsRoot(tmp.resolve("runs"));
        ClusterLauncher launcher = new ClusterLauncher(ctx, out.stream(), err.stream());
        CompletableFuture<RunResult> running = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> running.complete(launcher.run())); // not the common pool (see ClusterLauncher)
        out.awaitContains(Duration.ofSeconds(60), DebugAgent.LINE_PREFIX + "node=1",
            "[1] Listening for transport dt_socket at address:");
        Matcher port = Pattern.compile("@cumulus-debug node=1 host=127.0.0.1 port=(\\d+)").matcher(out.text());
        assertTrue(port.find(), out.text());
        assertFalse(out.text().contains("[1] node"), "node 1 ran no code before a debugger attached");

        VirtualMachine vm = attach(port.group(1));
        try {
            assertTrue(vm.name().contains("VM"), vm.name());
            vm.resume();
            RunResult result = running.get(90, TimeUnit.SECONDS);
            assertEquals(0, result.exitCode(), out.text() + err.text());
        } finally {
            try {
                vm.dispose();
            } catch (RuntimeException e) {
                // the node ended: nothing to detach from
            }
        }
        assertTrue(out.text().contains("[1] node 2 greets node 1"), out.text());
    }

    @Test
    void aNodeOutsideTheRunIsRefused() {
        LaunchException e = assertThrows(LaunchException.class, () -> new LaunchContext().nodes(2).mainClass("Main")
            .debugNodes(Set.of(2)).validate());
        assertTrue(e.getMessage().contains("--debug 2 is not a node of this run: nodes are 0..1"), e.getMessage());
    }

    private static VirtualMachine attach(String port) throws Exception {
        AttachingConnector socket = Bootstrap.virtualMachineManager().attachingConnectors().stream()
            .filter(c -> c.name().equals("com.sun.jdi.SocketAttach")).findFirst().orElseThrow();
        Map<String, Connector.Argument> args = socket.defaultArguments();
        args.get("hostname").setValue("127.0.0.1");
        args.get("port").setValue(port);
        return socket.attach(args);
    }

    private static String location(Class<?> c) throws Exception {
        return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
    }
}
