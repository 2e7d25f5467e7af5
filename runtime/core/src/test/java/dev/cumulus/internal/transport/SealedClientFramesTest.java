package dev.cumulus.internal.transport;

import dev.cumulus.internal.auth.RunSecret;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A standing cluster's clients over UDP (servers on several hosts): real Aeron on loopback, a server and clients
 * whose frames are sealed under the cluster's client secret ({@link ClientSeals}), and strangers who know the stream
 * ids, the run tag and the ids but not the secret — or who replay what a client or a server sent. What they send is
 * dropped and counted, never decoded.
 */
@Timeout(60)
class SealedClientFramesTest {
    private static final int RUN_TAG = 43;
    private static final int STREAM_BASE = 5000;
    private static final int CLIENT = 1; // the first client of a one-server cluster
    private DriverHost driver;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final TransportFixture fixture = new TransportFixture(() -> received);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final RunSecret secret = RunSecret.generate();
    private final RunSecret clientSecret = secret.derived(ClientSeals.PURPOSE);

    @BeforeEach
    void startDriver() {
        driver = fixture.driver(l -> { });
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void aClientTalksToAServerAndForgedOrReplayedClientFramesAreDropped() throws Exception {
        String serverEndpoint = "127.0.0.1:" + TransportFixture.freePort();
        NodeTransport server = server(serverEndpoint);
        byte[] session1 = session(1);
        NodeTransport client = client(serverEndpoint, session1, 0);
        fixture.pollUntil(() -> client.isConnected(0, Channel.DATA));
        send(client, 0, "attach");
        fixture.pollUntil(() -> received.contains("0<-1 attach"));
        server.clientAttached(CLIENT, client.localEndpoint(), session1);
        fixture.pollUntil(() -> server.isConnected(CLIENT, Channel.DATA));
        send(server, CLIENT, "welcome");
        fixture.pollUntil(() -> received.contains("1<-0 welcome"));

        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.directory()));
             ExclusivePublication toServer = aeron.addExclusivePublication(
                 "aeron:udp?endpoint=" + serverEndpoint + "|term-length=8m", STREAM_BASE + Channel.DATA.ordinal())) {
            fixture.pollUntil(toServer::isConnected);
            // a stranger that claims the client's id, under a key of another cluster
            offerSealed(new SealedPublication(toServer, ClientSeals.toServers(RunSecret.generate(), CLIENT), CLIENT, 0,
                Channel.DATA), CLIENT, "forged");
            fixture.pollUntil(() -> server.rejectedFrames() == 1);
            // a recorder of the wire: the client's first frame again, its counter and tag as sent
            offerSealed(new SealedPublication(toServer, ClientSeals.toServers(clientSecret, CLIENT), CLIENT, 0,
                Channel.DATA), CLIENT, "attach");
            fixture.pollUntil(() -> server.rejectedFrames() == 2);
        }
        fixture.close(client);

        // the id's next holder counts above every earlier one's frames and chooses a new session: a frame the server
        // sealed for the former session does not open there
        byte[] session2 = session(2);
        NodeTransport next = client(serverEndpoint, session2, 1L << 32);
        fixture.pollUntil(() -> next.isConnected(0, Channel.DATA));
        send(next, 0, "attach again");
        fixture.pollUntil(() -> received.contains("0<-1 attach again"));
        try (Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.directory()));
             ExclusivePublication toClient = aeron.addExclusivePublication(
                 "aeron:udp?endpoint=" + next.localEndpoint() + "|term-length=8m", STREAM_BASE + CLIENT * Channel.values().length + Channel.DATA.ordinal())) {
            fixture.pollUntil(toClient::isConnected);
            offerSealed(new SealedPublication(toClient, ClientSeals.toClient(clientSecret, CLIENT, session1), 0, CLIENT,
                Channel.DATA), 0, "meant for the former client");
            fixture.pollUntil(() -> next.rejectedFrames() == 1);
        }
        server.clientAttached(CLIENT, next.localEndpoint(), session2);
        fixture.pollUntil(() -> server.isConnected(CLIENT, Channel.DATA));
        send(server, CLIENT, "welcome back");
        fixture.pollUntil(() -> received.contains("1<-0 welcome back"));
        assertEquals(List.of("0<-1 attach", "1<-0 welcome", "0<-1 attach again", "1<-0 welcome back"), received);
        assertEquals(2, server.rejectedFrames(), "the forged and the replayed frame");
        assertTrue(lines.getFirst().contains("no valid MAC"), lines.toString()); // one line a second: the clock stands
    }

    private NodeTransport server(String endpoint) {
        TransportContext ctx = new TransportContext(driver.directory(), true, false, List.of(endpoint), STREAM_BASE,
            RUN_TAG, TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024, secret, FrameSealing.MAC);
        NodeTransport t = new NodeTransport(ctx, 0, 1, 1 + NodeTransport.CLIENT_SLOTS, handler(0), () -> 0L,
            lines::add, null, 0, peer -> null);
        fixture.add(t);
        return t;
    }

    private NodeTransport client(String serverEndpoint, byte[] session, long lastCounter) {
        List<String> endpoints = new ArrayList<>(List.of(serverEndpoint, "127.0.0.1:0"));
        TransportContext ctx = new TransportContext(driver.directory(), true, false, endpoints, STREAM_BASE, RUN_TAG,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024, clientSecret, FrameSealing.MAC);
        NodeTransport t = NodeTransport.client(ctx, CLIENT, 1, handler(CLIENT), session, lastCounter,
            server -> null);
        fixture.add(t);
        return t;
    }

    private MessageHandler handler(int id) {
        return (source, channel, buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            received.add(id + "<-" + source + " " + new String(bytes, StandardCharsets.UTF_8));
        };
    }

    private static void send(NodeTransport from, int to, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        from.send(to, Channel.DATA, new UnsafeBuffer(bytes), 0, bytes.length, 10_000_000_000L);
    }

    private static byte[] session(int fill) {
        byte[] s = new byte[16];
        java.util.Arrays.fill(s, (byte) fill);
        return s;
    }

    private void offerSealed(SealedPublication sealed, int source, String text) {
        UnsafeBuffer plain = new UnsafeBuffer(new byte[FrameHeaderFlyweight.WHOLE_LENGTH]);
        new FrameHeaderFlyweight().wrap(plain, 0).header(FrameHeaderFlyweight.WHOLE, source, RUN_TAG);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        TransportFixture.offerUntilTaken(
            () -> sealed.offer(plain, FrameHeaderFlyweight.WHOLE_LENGTH, new UnsafeBuffer(bytes), 0, bytes.length),
            "the sealed publication");
    }


}
