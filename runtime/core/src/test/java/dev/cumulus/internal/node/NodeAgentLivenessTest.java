package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.MessageHandler;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's and the heartbeat thread's side of liveness over real Aeron (one driver, IPC): the test thread runs
 * one node's agent on a stepped clock and plays its peer with a bare transport.
 */
@Timeout(60)
class NodeAgentLivenessTest {
    private static final long MS = 1_000_000L;
    private static final NodeSettings.Liveness LIVENESS =
        NodeSettings.of(0, 2, 200, 2_000, "backoff", 2, new Properties()).liveness();

    private DriverHost driver;
    private final List<NodeTransport> transports = new CopyOnWriteArrayList<>();
    /** Control messages the bare peer received. */
    private final List<ControlMessage> toPeer = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong now = new AtomicLong(1_000 * MS);
    private NodeAgent agent;

    @BeforeEach
    void startDriver() {
        driver = DriverHost.start(System.getProperty("java.io.tmpdir") + "/cumulus-test-" + UUID.randomUUID());
    }

    @AfterEach
    void cleanUp() {
        transports.forEach(NodeTransport::close);
        driver.close();
        assertFalse(new File(driver.directory()).exists(), "driver directory removed");
    }

    /** Node 1's agent on the stepped clock, and node 0: a bare transport whose control messages the test reads. */
    private NodeTransport[] start() {
        NodeAgent[] holder = new NodeAgent[1];
        NodeTransport peer = transport(0, (source, channel, buffer, offset, length) -> {
            if (channel == Channel.CONTROL) {
                toPeer.add(ControlMessage.decode(new ControlFlyweight().wrap(buffer, offset), length));
            }
        });
        NodeTransport mine = transport(1, (source, channel, buffer, offset, length) ->
            holder[0].onMessage(source, channel, buffer, offset, length));
        agent = new NodeAgent(mine, now::get, new Listener(), LIVENESS, 60_000 * MS, 0);
        holder[0] = agent;
        return new NodeTransport[] {peer, mine};
    }

    private NodeTransport transport(int id, MessageHandler handler) {
        TransportContext ctx = new TransportContext(driver.directory(), false, List.of(), 2000, 7,
            TransportContext.DEFAULT_DATA_TERM_LENGTH, 64 * 1024 * 1024);
        NodeTransport t = new NodeTransport(ctx, id, 2, handler);
        transports.add(t);
        return t;
    }

    /** Polls the peer and runs the agent until {@code condition} holds. */
    private void runUntil(NodeTransport peer, BooleanSupplier condition) {
        long deadline = System.nanoTime() + 30_000 * MS;
        while (!condition.getAsBoolean()) {
            int work = peer.poll(64) + agent.doWork();
            if (work == 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() < deadline, "condition not reached in time");
        }
    }

    private static void sendControl(NodeTransport from, int to, ControlMessage message) {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        int length = ControlMessage.encode(message, new ControlFlyweight().wrap(buffer, 0));
        assertEquals(NodeTransport.SENT, from.trySend(to, Channel.CONTROL, buffer, 0, length));
    }

    private final class Listener implements NodeAgent.Listener {
        @Override
        public void onData(int source, DirectBuffer buffer, int offset, int length) {
        }

        @Override
        public void onOrder(int source, DirectBuffer buffer, int offset, int length) {
        }

        @Override
        public void onJoined() {
        }

        @Override
        public void onBarrierReleased(long epoch, long watermark) {
        }

        @Override
        public void onFailure(int peer, String reason) {
            failures.add(peer + ": " + reason);
        }

        @Override
        public void onPeerLeft(int peer, long lastBarrier, Leaving leaving) {
        }
    }

    @Test
    void theAgentSaysHelloWithItsPidAndAnswersAProbeWithItsProgress() {
        NodeTransport[] nodes = start();
        NodeTransport peer = nodes[0];
        runUntil(peer, () -> toPeer.stream().anyMatch(m -> m instanceof ControlMessage.Hello));
        ControlMessage.Hello hello = (ControlMessage.Hello) toPeer.stream()
            .filter(m -> m instanceof ControlMessage.Hello).findFirst().orElseThrow();
        assertEquals(ProcessHandle.current().pid(), hello.pid());
        assertTrue(toPeer.stream().noneMatch(m -> m instanceof ControlMessage.Heartbeat),
            "the agent itself does not beat");

        sendControl(peer, 1, new ControlMessage.Probe());
        runUntil(peer, () -> toPeer.stream().anyMatch(m -> m instanceof ControlMessage.Heartbeat));
        ControlMessage.Heartbeat answer = (ControlMessage.Heartbeat) toPeer.stream()
            .filter(m -> m instanceof ControlMessage.Heartbeat).findFirst().orElseThrow();
        assertTrue(answer.progress() > 0, "the answer carries the duty cycles run: " + answer);
        assertTrue(agent.progress() >= answer.progress());
    }

    @Test
    void theHeartbeatSenderCarriesTheAgentsProgressAndStopsWhenTheAgentDies() {
        NodeTransport[] nodes = start();
        NodeTransport peer = nodes[0];
        AtomicLong progress = new AtomicLong(41);
        AtomicBoolean agentAlive = new AtomicBoolean(true);
        HeartbeatSender sender = new HeartbeatSender(nodes[1], progress::get, agentAlive::get, 200 * MS, 5, () -> { },
            "unused");
        runUntil(peer, () -> nodes[1].isConnected(0, Channel.CONTROL));

        assertTrue(sender.beat());
        progress.set(42);
        assertTrue(sender.beat());
        long pid = ProcessHandle.current().pid();
        runUntil(peer, () -> toPeer.contains(new ControlMessage.Heartbeat(42, pid, 5)));
        assertTrue(toPeer.contains(new ControlMessage.Heartbeat(41, pid, 5)));

        agentAlive.set(false);
        toPeer.clear();
        assertFalse(sender.beat(), "a dead agent's node falls silent");
        sender.close();
        assertFalse(sender.beat(), "a closed sender beats no more");
        sendControl(nodes[1], 0, new ControlMessage.Probe()); // a marker behind anything the sender might have sent
        runUntil(peer, () -> toPeer.contains(new ControlMessage.Probe()));
        assertEquals(List.of(new ControlMessage.Probe()), toPeer);
    }

    @Test
    void aPeerThatTakesNoControlMessagesFailsOnceItsOutboxIsFull() {
        NodeTransport[] nodes = start();
        NodeTransport peer = nodes[0];
        runUntil(peer, () -> toPeer.stream().anyMatch(m -> m instanceof ControlMessage.Hello));
        // from now on node 0 polls nothing: its control stream fills, then the agent's outbox to it
        int entered = 0;
        while (failures.isEmpty()) {
            agent.enterBarrier(++entered, 0, BarrierKind.BARRIER);
            assertTrue(agent.outboxSize() <= NodeAgent.OUTBOX_LIMIT, "the outbox stays bounded");
            assertTrue(entered < 1_000_000, "node 0 never failed");
        }
        assertEquals(1, failures.size());
        assertTrue(failures.getFirst().startsWith("0: node 0 took no control messages while " + NodeAgent.OUTBOX_LIMIT
            + " waited for it (the control outbox to it is full)"), failures.getFirst());
        assertEquals(0, agent.outboxSize(), "nothing waits for a failed node");
    }

    @Test
    void aSilentPeerIsProbedAndDeclaredFailedOnTheSteppedClock() {
        NodeTransport[] nodes = start();
        NodeTransport peer = nodes[0];
        sendControl(peer, 1, new ControlMessage.Hello(0, 0));
        sendControl(peer, 1, new ControlMessage.Heartbeat(1, 0, 0));
        runUntil(peer, agent::joined);
        toPeer.clear();
        now.addAndGet(LIVENESS.suspectFloorNs() + MS); // clock-like so far: suspected at the floor
        runUntil(peer, () -> toPeer.contains(new ControlMessage.Probe()));
        assertTrue(failures.isEmpty());
        now.addAndGet(LIVENESS.verifyNs());
        runUntil(peer, () -> !failures.isEmpty());
        assertTrue(failures.getFirst().startsWith("0: node 0 has not been heard from for"), failures.getFirst());
        assertEquals(1, failures.size());
    }
}
