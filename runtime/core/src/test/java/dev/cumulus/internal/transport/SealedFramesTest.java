package dev.cumulus.internal.transport;

import dev.cumulus.internal.auth.RunSecret;
import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Frames over UDP are sealed: real Aeron on loopback, node transports of one run, and strangers in this test's own
 * Aeron client who know everything about the run except its secret (the stream ids, the run tag, the node ids) — or
 * who replay what the run sent. What a stranger sends is dropped, counted and told, never decoded; the run goes on.
 */
@Timeout(60)
class SealedFramesTest {
    private static final int RUN_TAG = 41;
    private static final int STREAM_BASE = 4000;
    private DriverHost driver;
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final TransportFixture fixture = new TransportFixture(() -> received);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<String> driverLines = new CopyOnWriteArrayList<>();
    private final AtomicLong clock = new AtomicLong();

    @BeforeEach
    void startDriver() {
        driver = fixture.driver(driverLines::add);
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @ParameterizedTest
    @EnumSource(value = FrameSealing.class, names = {"MAC", "ENCRYPT"})
    void forgedAndPlainFramesAreDroppedCountedToldOnceASecondAndNeverDecoded(FrameSealing sealing) throws Exception {
        TransportContext ctx = context(endpoints(2), RunSecret.generate(), sealing);
        NodeTransport n0 = node(ctx, 0, 2);
        NodeTransport n1 = node(ctx, 1, 2);
        fixture.pollUntil(() -> n0.isConnected(1, Channel.DATA) && n1.isConnected(0, Channel.DATA));
        try (Aeron aeron = client();
             Publication raw = aeron.addPublication(udp(ctx, 0), ctx.streamId(0, Channel.DATA))) {
            fixture.pollUntil(raw::isConnected);
            UnsafeBuffer b = new UnsafeBuffer(new byte[128]);
            FrameHeaderFlyweight h = new FrameHeaderFlyweight().wrap(b, 0);
            h.header(FrameHeaderFlyweight.WHOLE, 1, RUN_TAG); // the unauthenticated frame of old
            b.putBytes(FrameHeaderFlyweight.WHOLE_LENGTH, "plain".getBytes(StandardCharsets.UTF_8));
            offer(raw, b, FrameHeaderFlyweight.WHOLE_LENGTH + 5);
            // valid-looking sealed headers with a made-up tag, 100 of them
            h.header(FrameHeaderFlyweight.SEALED_WHOLE, 1, RUN_TAG);
            b.putByte(FrameHeaderFlyweight.PADDING_OFFSET,
                sealing == FrameSealing.ENCRYPT ? FrameHeaderFlyweight.FLAG_ENCRYPTED : 0);
            b.putBytes(FrameHeaderFlyweight.SEALED_WHOLE_LENGTH, "forged".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 100; i++) {
                b.putLong(FrameHeaderFlyweight.WHOLE_LENGTH, 1_000 + i, java.nio.ByteOrder.LITTLE_ENDIAN);
                b.putLong(FrameHeaderFlyweight.WHOLE_LENGTH + 8, 0x5eed_0000L + i);
                offer(raw, b, FrameHeaderFlyweight.SEALED_WHOLE_LENGTH + 6);
            }
            fixture.pollUntil(() -> n0.rejectedFrames() == 101);
            assertEquals(1, lines.size(), "one line while the clock stands: " + lines);
            assertTrue(lines.getFirst().contains("from 127.0.0.1:"), "names the source address: " + lines.getFirst());
            assertTrue(lines.getFirst().contains("not decoded"), lines.getFirst());

            clock.addAndGet(FrameRejections.DEFAULT_INTERVAL_NS);
            offer(raw, b, FrameHeaderFlyweight.SEALED_WHOLE_LENGTH + 6);
            fixture.pollUntil(() -> n0.rejectedFrames() == 102);
            assertEquals(2, lines.size(), "a second later, another line: " + lines);
            assertTrue(lines.get(1).contains("no valid MAC"), lines.get(1));
        }
        byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
        n1.send(0, Channel.DATA, new UnsafeBuffer(ok), 0, ok.length, 10_000_000_000L);
        fixture.pollUntil(() -> !received.isEmpty());
        assertEquals(List.of("0<-1 DATA ok"), received, "the run goes on; nothing forged reached the handler");
        assertEquals(0, n0.failedFrames(), "no forged frame was decoded");
    }

    @ParameterizedTest
    @EnumSource(value = FrameSealing.class, names = {"MAC", "ENCRYPT"})
    void aNodeOfAnotherRunAimedAtThisRunsPortsCannotJoin(FrameSealing sealing) throws Exception {
        List<String> endpoints = endpoints(2);
        TransportContext run = context(endpoints, RunSecret.generate(), sealing);
        NodeTransport n0 = node(run, 0, 2);
        // another run with the same run tag and stream ids whose node 1 sends to this run's node 0
        List<String> theirs = List.of(endpoints.get(0), "127.0.0.1:" + TransportFixture.freePort());
        TransportContext other = context(theirs, RunSecret.generate(), sealing);
        NodeTransport stranger = node(other, 1, 2);
        fixture.pollUntil(() -> stranger.isConnected(0, Channel.CONTROL));
        byte[] hello = "hello".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < 5; i++) {
            stranger.send(0, Channel.CONTROL, new UnsafeBuffer(hello), 0, hello.length, 10_000_000_000L);
        }
        fixture.pollUntil(() -> n0.rejectedFrames() == 5);
        assertEquals(List.of(), received, "not one of the stranger's frames was decoded");

        NodeTransport n1 = node(run, 1, 2); // wait: the stranger holds no port of this run, so node 1 is free to join
        fixture.pollUntil(() -> n1.isConnected(0, Channel.CONTROL));
        n1.send(0, Channel.CONTROL, new UnsafeBuffer(hello), 0, hello.length, 10_000_000_000L);
        fixture.pollUntil(() -> !received.isEmpty());
        assertEquals(List.of("0<-1 CONTROL hello"), received);
    }

    @Test
    void aSetupFrameAskingForALongerTermThanTheRunUsesIsDroppedBeforeTheDriverAllocatesForIt() throws Exception {
        TransportContext ctx = context(endpoints(2), RunSecret.generate(), FrameSealing.MAC);
        NodeTransport n0 = node(ctx, 0, 2);
        NodeTransport n1 = node(ctx, 1, 2);
        fixture.pollUntil(() -> n0.isConnected(1, Channel.DATA) && n1.isConnected(0, Channel.DATA));
        // a stranger's own driver sends setup frames for node 0's data stream declaring 64 MiB terms (Aeron takes up
        // to 1 GiB; each image is three terms)
        try (DriverHost theirs = DriverHost.start(System.getProperty("java.io.tmpdir") + "/cumulus-test-stranger-"
                + UUID.randomUUID(), false, line -> { });
             Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(theirs.directory()));
             Publication big = aeron.addPublication(udp(ctx, 0) + "|term-length=64m", ctx.streamId(0, Channel.DATA))) {
            fixture.pollUntil(() -> driverLines.stream().anyMatch(l -> l.contains("dropped an Aeron setup frame")));
            assertFalse(big.isConnected(), "no image was made for the stranger");
        }
        String told = driverLines.getFirst();
        assertTrue(told.contains("declaring a term length of " + 64 * 1024 * 1024) && told.contains("127.0.0.1"), told);
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of(driver.directory(), "images"))) {
            List<String> tooLong = files.filter(f -> f.toFile().length() > 3L * TransportContext.DEFAULT_DATA_TERM_LENGTH
                + 1024 * 1024).map(f -> f + " " + f.toFile().length()).toList();
            assertEquals(List.of(), tooLong, "no image longer than the run's own");
        }
        byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
        n1.send(0, Channel.DATA, new UnsafeBuffer(ok), 0, ok.length, 10_000_000_000L);
        fixture.pollUntil(() -> !received.isEmpty());
        assertEquals(List.of("0<-1 DATA ok"), received, "the run goes on");
    }

    @Test
    void setupTermLengthsAreBoundedToPowersOfTwoWithinTheRunsRange() {
        int max = TransportContext.DEFAULT_DATA_TERM_LENGTH;
        assertTrue(BoundedSetupEndpoint.acceptable(64 * 1024, max));
        assertTrue(BoundedSetupEndpoint.acceptable(max, max));
        assertFalse(BoundedSetupEndpoint.acceptable(2 * max, max));
        assertFalse(BoundedSetupEndpoint.acceptable(1 << 30, max));
        assertFalse(BoundedSetupEndpoint.acceptable(32 * 1024, max));
        assertFalse(BoundedSetupEndpoint.acceptable(3 * 64 * 1024, max));
        assertFalse(BoundedSetupEndpoint.acceptable(-1 << 31, max));
        assertFalse(BoundedSetupEndpoint.acceptable(0, max));
    }

    @ParameterizedTest
    @EnumSource(value = FrameSealing.class, names = {"MAC", "ENCRYPT"})
    void replayedFramesAreDropped(FrameSealing sealing) throws Exception {
        RunSecret secret = RunSecret.generate();
        TransportContext ctx = context(endpoints(3), secret, sealing);
        NodeTransport n0 = node(ctx, 0, 3);
        SealKeys keys = new SealKeys(secret, sealing == FrameSealing.ENCRYPT);
        UnsafeBuffer plain = new UnsafeBuffer(new byte[FrameHeaderFlyweight.WHOLE_LENGTH]);
        new FrameHeaderFlyweight().wrap(plain, 0).header(FrameHeaderFlyweight.WHOLE, 2, RUN_TAG);
        try (Aeron aeron = client()) {
            // node 2 of the run (this test holds the secret) sends two frames; a recorder of the wire sends the same
            // bytes again over a session of its own: same counters, same tags
            for (int session = 0; session < 2; session++) {
                try (ExclusivePublication pub = aeron.addExclusivePublication(udp(ctx, 0) + "|term-length=8m",
                        ctx.streamId(0, Channel.DATA))) {
                    fixture.pollUntil(pub::isConnected);
                    SealedPublication sealed = new SealedPublication(pub, keys, 2, 0, Channel.DATA);
                    for (String text : List.of("one", "two")) {
                        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
                        offerSealed(sealed, plain, new UnsafeBuffer(bytes), bytes.length);
                    }
                    if (session == 0) {
                        fixture.pollUntil(() -> received.size() == 2);
                    } else {
                        fixture.pollUntil(() -> n0.rejectedFrames() == 2);
                        byte[] three = "three".getBytes(StandardCharsets.UTF_8);
                        offerSealed(sealed, plain, new UnsafeBuffer(three), three.length); // counter 3: new
                        fixture.pollUntil(() -> received.size() == 3);
                    }
                }
            }
        }
        assertEquals(List.of("0<-2 DATA one", "0<-2 DATA two", "0<-2 DATA three"), received);
        assertEquals(2, n0.rejectedFrames(), "each replay counted");
        assertTrue(lines.getFirst().contains("a replay"), lines.toString());
    }

    private void offerSealed(SealedPublication sealed, UnsafeBuffer plainHeader, UnsafeBuffer payload, int length) {
        TransportFixture.offerUntilTaken(
            () -> sealed.offer(plainHeader, FrameHeaderFlyweight.WHOLE_LENGTH, payload, 0, length),
            "the sealed publication");
    }

    private TransportContext context(List<String> endpoints, RunSecret secret, FrameSealing sealing) {
        return new TransportContext(driver.directory(), true, false, endpoints, STREAM_BASE, RUN_TAG,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024, secret, sealing);
    }

    private NodeTransport node(TransportContext ctx, int id, int size) {
        NodeTransport t = new NodeTransport(ctx, id, size, (source, channel, buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            received.add(id + "<-" + source + " " + channel + " " + new String(bytes, StandardCharsets.UTF_8));
        }, clock::get, lines::add);
        fixture.add(t);
        return t;
    }

    private Aeron client() {
        return Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.directory()));
    }

    private static String udp(TransportContext ctx, int node) {
        return "aeron:udp?endpoint=" + ctx.endpoints().get(node);
    }


    private static void offer(Publication publication, UnsafeBuffer buffer, int length) {
        TransportFixture.offerUntilTaken(() -> publication.offer(buffer, 0, length), "the raw publication");
    }

    private static List<String> endpoints(int n) throws Exception {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add("127.0.0.1:" + TransportFixture.freePort());
        }
        return l;
    }

}
