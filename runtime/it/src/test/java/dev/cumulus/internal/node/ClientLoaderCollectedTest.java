package dev.cumulus.internal.node;

import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.cloud.AgentLoader;
import dev.cumulus.internal.service.ClientAdmission;
import dev.cumulus.internal.service.ClientNode;
import dev.cumulus.internal.service.ServedClients;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A departed client's name space on a standing cluster's server is collected: once the client has left, nothing on
 * the server reaches the class loader its classes were defined in — not the RPC engine's caches, the transfer
 * allow-list, the name service, nor the agent, which is attached here as on every real server and sees every class
 * the loader defines.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientLoaderCollectedTest {
    @TempDir
    Path tmp;

    private URLClassLoader clientClasses() throws Exception {
        Path src = tmp.resolve("src/gone");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Echo.java"), "package gone; public interface Echo { String echo(String s); }");
        Files.writeString(src.resolve("EchoImpl.java"), "package gone; public class EchoImpl implements Echo { "
            + "public String echo(String s) { return s + \" via \" + getClass().getClassLoader().getName(); } }");
        Path out = tmp.resolve("classes");
        Files.createDirectories(out);
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(),
            src.resolve("Echo.java").toString(), src.resolve("EchoImpl.java").toString()));
        return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void theLoaderOfADepartedClientIsCollectedOnTheServer() throws Exception {
        AgentLoader.ensureInstalled();
        byte[] credential = RunSecret.generate().keyBytes(RunSecret.STANDING_CREDENTIAL_PURPOSE);
        DriverHost driver = DriverHost.start(DriverHost.defaultDirectory("gc-test-" + ProcessHandle.current().pid()));
        ClusterNode server = null;
        try {
            TransportContext ctx = new TransportContext(driver.directory(), false, false, List.of(), 7100, 43,
                TransportContext.DEFAULT_DATA_TERM_LENGTH, TransportContext.DEFAULT_MAX_MESSAGE_BYTES,
                RunSecret.generate(), FrameSealing.MAC);
            NodeSettings settings = NodeSettings.of(0, 1, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, NodeSettings.DEFAULT_IDLE_STRATEGY, 1, new Properties());
            server = ClusterNode.start(settings, ctx, getClass().getClassLoader(), List.of(), null,
                ServedClients.serving(new ClientAdmission(credential, 1, 1 + NodeTransport.CLIENT_SLOTS)))
                .awaitJoined();
            WeakReference<ClassLoader> serverSide;
            try (URLClassLoader classes = clientClasses();
                 ClientNode client = ClientNode.connect(ctx, 1, 1, credential, settings, classes)) {
                Class iface = classes.loadClass("gone.Echo");
                Object echo = client.remoteNew(classes.loadClass("gone.EchoImpl"), iface, "echo", 0);
                Method m = iface.getMethod("echo", String.class);
                assertEquals("hi via cumulus-client-1", m.invoke(echo, "hi"));
                serverSide = clientLoaderOf(server, 1);
            }
            assertNull(((ServedClients) server.remoteObjects().clientService()).clientLoader(1),
                "the server let the client go");
            assertTrue(collected(serverSide, TimeUnit.SECONDS.toNanos(30)), "the departed client's class loader on "
                + "the server is still reachable after repeated collections");
        } finally {
            if (server != null) {
                server.leave();
            }
            driver.close();
        }
    }

    /** A weak reference to the server's loader of {@code client}'s classes (no strong one stays in a caller's frame). */
    private static WeakReference<ClassLoader> clientLoaderOf(ClusterNode server, int client) {
        ClassLoader loader = ((ServedClients) server.remoteObjects().clientService()).clientLoader(client);
        assertNotNull(loader, "the server made a class loader for client " + client);
        return new WeakReference<>(loader);
    }

    /** Collects until {@code ref} is cleared or {@code timeoutNs} passed; whether it was cleared. */
    private static boolean collected(WeakReference<?> ref, long timeoutNs) {
        long deadline = System.nanoTime() + timeoutNs;
        while (ref.get() != null && System.nanoTime() - deadline < 0) {
            System.gc();
        }
        return ref.get() == null;
    }
}
