package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import io.aeron.Aeron;
import io.aeron.Publication;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real Aeron: one shared driver, IPC streams, two or three node transports polled by the test thread. */
@Timeout(60)
class NodeTransportTest {
    /** What a send after the transport closed says. */
    private static final String LEFT = "has left the cluster (Cluster.close() was called, or the node is ending)";

    private DriverHost driver;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final TransportFixture fixture = new TransportFixture(() -> received);

    record Received(int to, int from, Channel channel, byte[] bytes) {
    }

    @BeforeEach
    void startDriver() {
        driver = fixture.driver();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    private NodeTransport node(int id, int size, int runTag) {
        TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 2000, runTag,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024);
        NodeTransport t = new NodeTransport(ctx, id, size, (source, channel, buffer, offset, length) -> {
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            received.add(new Received(id, source, channel, bytes));
        });
        fixture.add(t);
        return t;
    }


    @Test
    void deliversSmallMessagesWithSourceAndChannel() {
        NodeTransport a = node(0, 2, 7);
        NodeTransport b = node(1, 2, 7);
        fixture.pollUntil(() -> a.isConnected(1, Channel.DATA) && b.isConnected(0, Channel.CONTROL));
        UnsafeBuffer msg = new UnsafeBuffer("hello".getBytes());
        assertEquals(NodeTransport.SENT, a.trySend(1, Channel.CONTROL, msg, 0, 5));
        a.send(1, Channel.DATA, msg, 1, 4, 5_000_000_000L);
        fixture.pollUntil(() -> received.size() == 2);
        assertTrue(received.contains(new Received(1, 0, Channel.CONTROL, "hello".getBytes())) || received.stream()
            .anyMatch(r -> r.channel() == Channel.CONTROL && new String(r.bytes()).equals("hello") && r.from() == 0));
        assertTrue(received.stream().anyMatch(r -> r.channel() == Channel.DATA && new String(r.bytes()).equals("ello")));
    }

    @Test
    void largeMessagesFromConcurrentSendersAreChunkedAndReassembled() throws Exception {
        NodeTransport a = node(0, 3, 7);
        NodeTransport b = node(1, 3, 7);
        NodeTransport c = node(2, 3, 7);
        fixture.pollUntil(() -> a.isConnected(2, Channel.DATA) && b.isConnected(2, Channel.DATA));
        byte[] big1 = new byte[5 * 1024 * 1024 + 3];
        byte[] big2 = new byte[3 * 1024 * 1024 + 11];
        new Random(1).nextBytes(big1);
        new Random(2).nextBytes(big2);
        Thread s1 = Thread.ofPlatform().start(() ->
            a.send(2, Channel.DATA, new UnsafeBuffer(big1), 0, big1.length, 20_000_000_000L));
        Thread s2 = Thread.ofPlatform().start(() ->
            b.send(2, Channel.DATA, new UnsafeBuffer(big2), 0, big2.length, 20_000_000_000L));
        fixture.pollUntil(() -> received.size() == 2);
        s1.join();
        s2.join();
        for (Received r : received) {
            assertEquals(2, r.to());
            assertArrayEquals(r.from() == 0 ? big1 : big2, r.bytes());
        }
        assertEquals(0, c.poll(1), "nothing left over");
    }

    @Test
    void framesOfAnotherRunAreDropped() {
        NodeTransport ours = node(0, 2, 7);
        NodeTransport stranger = node(1, 2, 99);
        NodeTransport peer = node(1, 2, 7);
        fixture.pollUntil(() -> stranger.isConnected(0, Channel.CONTROL));
        UnsafeBuffer msg = new UnsafeBuffer(new byte[] {1, 2, 3});
        stranger.send(0, Channel.CONTROL, msg, 0, 3, 5_000_000_000L);
        peer.send(0, Channel.CONTROL, msg, 0, 2, 5_000_000_000L);
        fixture.pollUntil(() -> received.stream().anyMatch(r -> r.to() == 0));
        assertEquals(1, received.stream().filter(r -> r.to() == 0).count());
        assertEquals(2, received.getFirst().bytes().length, "only the message tagged with our run arrived");
        assertTrue(ours.isConnected(1, Channel.DATA));
    }

    /**
     * Hostile frames straight onto a node's stream (a raw Aeron publication, as a stranger on the same driver could
     * send): short ones, unknown types, bad sources, cut chunk headers, chunks with negative or oversized lengths and
     * offsets. The decoder drops each without an exception out of the poll, and a good frame after them arrives alone.
     */
    @Test
    void hostileFramesAreDroppedAndTheStreamStaysUsable() {
        int runTag = 7;
        node(0, 2, runTag);
        TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 2000, runTag,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024);
        try (Aeron aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(driver.directory()));
             Publication raw = aeron.addPublication("aeron:ipc", ctx.streamId(0, Channel.DATA))) {
            fixture.pollUntil(raw::isConnected);
            UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
            FrameHeaderFlyweight h = new FrameHeaderFlyweight().wrap(b, 0);
            h.header(FrameHeaderFlyweight.WHOLE, 1, runTag);
            offer(raw, b, 5); // shorter than any header
            h.header((byte) 9, 1, runTag);
            offer(raw, b, 20); // an unknown type
            h.header(FrameHeaderFlyweight.WHOLE, 5, runTag);
            offer(raw, b, 20); // a source outside the cluster
            h.header(FrameHeaderFlyweight.WHOLE, -1, runTag);
            offer(raw, b, 20);
            h.header(FrameHeaderFlyweight.CHUNK, 1, runTag).chunk(1, 100, 0);
            offer(raw, b, FrameHeaderFlyweight.CHUNK_LENGTH - 1); // a chunk header cut short
            long id = 2;
            for (int[] totalAndOffset : new int[][] {{-1, 0}, {Integer.MAX_VALUE, 0}, {Integer.MIN_VALUE, 0},
                {100, -1}, {100, Integer.MAX_VALUE}, {100, 95}, {4, 0}}) {
                h.chunk(id++, totalAndOffset[0], totalAndOffset[1]);
                offer(raw, b, FrameHeaderFlyweight.CHUNK_LENGTH + 10); // 10 bytes of payload
            }
            h.header(FrameHeaderFlyweight.WHOLE, 1, runTag);
            b.putBytes(FrameHeaderFlyweight.WHOLE_LENGTH, "ok".getBytes());
            offer(raw, b, FrameHeaderFlyweight.WHOLE_LENGTH + 2);
            fixture.pollUntil(() -> !received.isEmpty());
        }
        assertEquals(List.of("ok"), received.stream().map(r -> new String(r.bytes())).toList());
        assertEquals(1, received.getFirst().from());
    }

    /**
     * A frame whose handling throws (as a decoder's bug on hostile bytes would) is dropped and counted, and a thousand
     * of them print one line: the error log is distinct and rate-limited. Frames declaring the largest message
     * allocate only what arrived. The node's stream still serves afterwards.
     */
    @Test
    void framesWhoseHandlingThrowsAreCountedPrintedOnceAndTheNodeStillServes() {
        int runTag = 7;
        List<String> lines = new CopyOnWriteArrayList<>();
        TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 2000, runTag,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 256 * 1024 * 1024);
        NodeTransport node = new NodeTransport(ctx, 0, 2, (source, channel, buffer, offset, length) -> {
            if (buffer.getByte(offset) == 66) {
                throw new IndexOutOfBoundsException("index " + (offset + 40) + " out of bounds"); // the same each time
            }
            byte[] bytes = new byte[length];
            buffer.getBytes(offset, bytes);
            received.add(new Received(0, source, channel, bytes));
        }, org.agrona.concurrent.SystemNanoClock.INSTANCE, lines::add);
        fixture.add(node);
        try (Aeron aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(driver.directory()));
             Publication raw = aeron.addPublication("aeron:ipc", ctx.streamId(0, Channel.DATA))) {
            fixture.pollUntil(raw::isConnected);
            UnsafeBuffer b = new UnsafeBuffer(new byte[64]);
            FrameHeaderFlyweight h = new FrameHeaderFlyweight().wrap(b, 0);
            h.header(FrameHeaderFlyweight.WHOLE, 1, runTag);
            b.putByte(FrameHeaderFlyweight.WHOLE_LENGTH, (byte) 66);
            for (int i = 0; i < 1000; i++) {
                offer(raw, b, 40);
                if (i % 100 == 99) {
                    int sent = i + 1;
                    fixture.pollUntil(() -> node.failedFrames() == sent);
                }
            }
            h.header(FrameHeaderFlyweight.CHUNK, 1, runTag);
            for (int id = 0; id < 4; id++) { // 36-byte frames that each declare a 256 MiB message
                h.chunk(100 + id, 256 * 1024 * 1024, 0);
                offer(raw, b, FrameHeaderFlyweight.CHUNK_LENGTH + 8);
            }
            h.header(FrameHeaderFlyweight.WHOLE, 1, runTag);
            b.putBytes(FrameHeaderFlyweight.WHOLE_LENGTH, "ok".getBytes());
            offer(raw, b, FrameHeaderFlyweight.WHOLE_LENGTH + 2);
            fixture.pollUntil(() -> !received.isEmpty());
        }
        assertEquals(1000, node.failedFrames());
        assertEquals(1000, node.errors().total());
        assertEquals(1, lines.size(), "one line for a thousand identical errors: " + lines);
        assertTrue(lines.getFirst().contains("IndexOutOfBoundsException"), lines.getFirst());
        assertEquals(List.of("ok"), received.stream().map(r -> new String(r.bytes())).toList());
        assertEquals(0, node.droppedChunkedMessages());
        assertTrue(node.chunkBytesHeld() <= 4L * ChunkAssembler.FIRST_BUFFER_BYTES, "" + node.chunkBytesHeld());
    }

    private static void offer(Publication publication, UnsafeBuffer buffer, int length) {
        TransportFixture.offerUntilTaken(() -> publication.offer(buffer, 0, length), "the raw publication");
    }

    @Test
    void sendGivesUpWithAClearMessageWhenNobodyListens() {
        NodeTransport a = node(0, 2, 7);
        UnsafeBuffer msg = new UnsafeBuffer(new byte[8]);
        assertEquals(NodeTransport.NOT_CONNECTED, a.trySend(1, Channel.DATA, msg, 0, 8));
        var e = assertThrows(CumulusException.class, () -> a.send(1, Channel.DATA, msg, 0, 8, 200_000_000L));
        assertTrue(e.getMessage().contains("node 1"), e.getMessage());
        a.markFailed(1, "node 1 is gone");
        var f = assertThrows(NodeFailedException.class, () -> a.send(1, Channel.DATA, msg, 0, 8, 10_000_000_000L));
        assertEquals(1, f.nodeId());
    }

    @Test
    void aClientsSendToAServerThatWentAwayFailsNamingItWhenItsFateIsKnown() {
        TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 2000, 7,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024);
        NodeTransport server = new NodeTransport(ctx, 0, 1, 1 + NodeTransport.CLIENT_SLOTS, (s, c, b, o, l) -> { });
        AtomicReference<String> fate = new AtomicReference<>(); // as a standing cluster's client learns from the OS
        NodeTransport client = NodeTransport.client(ctx, 1, 1, (s, c, b, o, l) -> { }, null, 0, peer -> fate.get());
        fixture.add(server);
        fixture.add(client);
        UnsafeBuffer msg = new UnsafeBuffer(new byte[8]);
        fixture.pollUntil(() -> client.isConnected(0, Channel.DATA));
        client.send(0, Channel.DATA, msg, 0, 8, 5_000_000_000L);
        server.close();
        fixture.pollUntil(() -> !client.isConnected(0, Channel.DATA));

        var unknown = assertThrows(CumulusException.class, () -> client.send(0, Channel.DATA, msg, 0, 8,
            60_000_000_000L));
        assertTrue(unknown.getMessage().contains("it was connected and is not any more"), unknown.getMessage());
        fate.set("server 0 ended: it was stopped");
        var known = assertThrows(NodeFailedException.class, () -> client.send(0, Channel.DATA, msg, 0, 8,
            60_000_000_000L));
        assertEquals(0, known.nodeId());
        assertTrue(known.getMessage().contains("server 0 ended: it was stopped"), known.getMessage());
        var later = assertThrows(NodeFailedException.class, () -> client.send(0, Channel.DATA, msg, 0, 8, 1_000L));
        assertEquals(0, later.nodeId());
    }

    @Test
    void closeWaitsForASenderStillInsideAndLaterSendsFailCleanly() throws Exception {
        NodeTransport a = node(0, 2, 7);
        UnsafeBuffer msg = new UnsafeBuffer(new byte[8]);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // node 1 never connects: the sender keeps offering inside its send (as a call thread sending its error
        // answer while the node leaves) until the close stops it
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                a.send(1, Channel.DATA, msg, 0, 8, 60_000_000_000L);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        while (a.sendersInside() == 0) {
            Thread.onSpinWait();
        }
        a.close();
        assertEquals(0, a.sendersInside(), "close returned while a send was still offering into Aeron's buffers");
        sender.join();
        assertTrue(failure.get() instanceof CumulusException
            && failure.get().getMessage().contains(LEFT), String.valueOf(failure.get()));
        var late = assertThrows(CumulusException.class, () -> a.send(1, Channel.DATA, msg, 0, 8, 1_000_000L));
        assertTrue(late.getMessage().contains(LEFT), late.getMessage());
        assertEquals(NodeTransport.CLOSED, a.trySend(1, Channel.DATA, msg, 0, 8));
        assertEquals(0, a.sendersInside());
    }

    @Test
    void chunkAssemblerRejectsOutOfBoundsChunks() {
        ChunkAssembler assembler = new ChunkAssembler(1024, 2048, ChunkAssembler.DEFAULT_EXPIRY_NS, () -> 0L,
            new TransportErrors("", () -> 0L, 1, line -> { }));
        UnsafeBuffer src = new UnsafeBuffer(new byte[2048]);
        assertEquals(null, assembler.onChunk(0, Channel.DATA, 1, 4096, 0, src, 0, 10), "too large");
        assertEquals(null, assembler.onChunk(0, Channel.DATA, 1, 100, 95, src, 0, 10), "past the end");
        assertEquals(null, assembler.onChunk(0, Channel.DATA, 1, 100, -1, src, 0, 10), "negative offset");
        assertEquals(0, assembler.partialCount());
        assertEquals(null, assembler.onChunk(0, Channel.DATA, 2, 20, 0, src, 0, 10));
        assertEquals(20, assembler.onChunk(0, Channel.DATA, 2, 20, 10, src, 0, 10).capacity());
        assembler.release(0, Channel.DATA, 2);
        assertEquals(0, assembler.partialCount());
    }
}
