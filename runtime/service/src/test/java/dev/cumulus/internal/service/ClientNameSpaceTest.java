package dev.cumulus.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.node.ClusterNode;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import javax.tools.ToolProvider;

/**
 * A server of a standing cluster and a client in this JVM, over one driver: the client's classes reach the server
 * through the client's own class loader there, which the server drops once the client has left. That the loader is then
 * collected, with the agent attached as on a real server, is runtime/it's {@code ClientLoaderCollectedTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClientNameSpaceTest {
    @TempDir
    Path tmp;

    private URLClassLoader clientClasses() throws Exception {
        Path src = tmp.resolve("src/ns");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Echo.java"), "package ns; public interface Echo { String echo(String s); }");
        Files.writeString(src.resolve("EchoImpl.java"), "package ns; public class EchoImpl implements Echo { "
            + "public String echo(String s) { return s + \" via \" + getClass().getClassLoader().getName(); } }");
        Path out = tmp.resolve("classes");
        Files.createDirectories(out);
        assertEquals(0, ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", out.toString(),
            src.resolve("Echo.java").toString(), src.resolve("EchoImpl.java").toString()));
        return new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aClientsClassesLiveInItsOwnLoaderOnTheServerWhichLetsItGoWhenItLeaves() throws Exception {
        byte[] credential = RunSecret.generate().keyBytes(RunSecret.STANDING_CREDENTIAL_PURPOSE);
        DriverHost driver = DriverHost.start(DriverHost.defaultDirectory("ns-test-" + ProcessHandle.current().pid()));
        ClusterNode server = null;
        try {
            TransportContext ctx = new TransportContext(driver.directory(), false, false, List.of(), 7000, 42,
                TransportContext.DEFAULT_DATA_TERM_LENGTH, TransportContext.DEFAULT_MAX_MESSAGE_BYTES,
                RunSecret.generate(), FrameSealing.MAC);
            NodeSettings settings = NodeSettings.of(0, 1, NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
                NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, NodeSettings.DEFAULT_IDLE_STRATEGY, 1, new Properties());
            ServedClients[] served = new ServedClients[1];
            ClientService.Factory serving = ServedClients.serving(
                new ClientAdmission(credential, 1, 1 + NodeTransport.CLIENT_SLOTS));
            server = ClusterNode.start(settings, ctx, getClass().getClassLoader(), List.of(), null,
                (engine, objects) -> served[0] = (ServedClients) serving.serve(engine, objects)).awaitJoined();
            try (URLClassLoader classes = clientClasses()) {
                Class iface = classes.loadClass("ns.Echo");
                Class impl = classes.loadClass("ns.EchoImpl");
                try (ClientNode client = ClientNode.connect(ctx, 1, 1, credential, settings, classes)) {
                    Object echo = client.remoteNew(impl, iface, "echo", 0);
                    Method m = iface.getMethod("echo", String.class);
                    assertEquals("hi via cumulus-client-1", m.invoke(echo, "hi"));
                    assertNotNull(served[0].clientLoader(1));
                }
                CumulusException e = assertThrows(CumulusException.class,
                    () -> ClientNode.connect(ctx, 1, 2, new byte[32], settings, classes));
                assertTrue(e.getMessage().contains("credential is not valid for this cluster"), e.getMessage());
            }
            assertEquals(null, served[0].clientLoader(1), "the server let the client go");
        } finally {
            if (server != null) {
                server.leave();
            }
            driver.close();
        }
    }
}
