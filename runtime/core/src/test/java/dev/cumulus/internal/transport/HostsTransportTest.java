package dev.cumulus.internal.transport;

import dev.cumulus.internal.auth.RunSecret;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nodes spread over two "hosts" in one JVM: two drivers, nodes 0 and 1 on the first (endpoints on 127.0.0.1), node 2
 * on the second (127.0.0.2). Within a host the nodes talk IPC, across hosts UDP; every pair delivers, large messages
 * included.
 */
@Timeout(60)
class HostsTransportTest {
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final TransportFixture fixture = new TransportFixture(() -> received);

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    /** Across hosts every frame is sealed (chunks of large messages too), authenticated or encrypted. */
    @ParameterizedTest
    @EnumSource(value = FrameSealing.class, names = {"MAC", "ENCRYPT"})
    void peersOnOneHostTalkIpcAndAcrossHostsUdp(FrameSealing sealing) throws Exception {
        DriverHost hostA = fixture.driver();
        DriverHost hostB = fixture.driver();
        InetAddress second = InetAddress.getByName("127.0.0.2");
        List<String> endpoints = List.of("127.0.0.1:" + TransportFixture.freePort(),
            "127.0.0.1:" + TransportFixture.freePort(), "127.0.0.2:" + TransportFixture.freePort(second));
        RunSecret secret = RunSecret.generate(); // one run over both hosts
        TransportContext a = context(hostA, endpoints, secret, sealing);
        TransportContext b = context(hostB, endpoints, secret, sealing);
        assertTrue(a.ipcBetween(0, 1));
        assertFalse(a.ipcBetween(0, 2));
        assertFalse(b.ipcBetween(2, 1));

        NodeTransport n0 = node(a, 0);
        NodeTransport n1 = node(a, 1);
        NodeTransport n2 = node(b, 2);
        List<NodeTransport> nodes = List.of(n0, n1, n2);
        fixture.pollUntil(() -> nodes.stream().allMatch(t -> IntStream.range(0, 3)
            .allMatch(peer -> t.isConnected(peer, Channel.DATA) && t.isConnected(peer, Channel.CONTROL))));
        assertFalse(n0.hasDoorbell(), "a node that hears from other hosts cannot sleep on a doorbell");

        byte[] large = new byte[300 * 1024];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        List<String> expected = new ArrayList<>();
        for (NodeTransport from : nodes) {
            for (int to = 0; to < 3; to++) {
                if (to == from.nodeId()) {
                    continue;
                }
                byte[] text = ("from " + from.nodeId() + " to " + to).getBytes(StandardCharsets.UTF_8);
                from.send(to, Channel.CONTROL, new UnsafeBuffer(text), 0, text.length, 10_000_000_000L);
                from.send(to, Channel.DATA, new UnsafeBuffer(large), 0, large.length, 10_000_000_000L);
                expected.add(to + "<-" + from.nodeId() + " CONTROL from " + from.nodeId() + " to " + to);
                expected.add(to + "<-" + from.nodeId() + " DATA large");
            }
        }
        fixture.pollUntil(() -> received.size() >= expected.size());
        assertEquals(expected.stream().sorted().toList(), received.stream().sorted().toList());
        for (NodeTransport t : nodes) {
            assertEquals(0, t.rejectedFrames(), "node " + t.nodeId() + " rejected a frame of its own run");
        }
    }

    private static TransportContext context(DriverHost driver, List<String> endpoints, RunSecret secret,
                                            FrameSealing sealing) {
        return new TransportContext(driver.directory(), true, true, endpoints, 3000, 11,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024, secret, sealing);
    }

    private NodeTransport node(TransportContext ctx, int id) {
        NodeTransport t = new NodeTransport(ctx, id, 3, (source, channel, buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            String what = length > 1000 ? "large" : new String(bytes, StandardCharsets.UTF_8);
            if (length > 1000) {
                for (int i = 0; i < length; i++) {
                    if (bytes[i] != (byte) (i * 31)) {
                        what = "corrupt at " + i;
                        break;
                    }
                }
            }
            received.add(id + "<-" + source + " " + channel + " " + what);
        });
        fixture.add(t);
        return t;
    }


}
