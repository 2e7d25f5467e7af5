package dev.cumulus.internal.cloud;

import dev.cumulus.internal.node.NodeSettings.Sequencer;
import dev.cumulus.internal.node.OrderChannel;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * How a static sequencer's submitter sends: its thread offers the {@code SUBMIT} itself, as a message it waits for the
 * sequencer to take ({@link OrderChannel#trySendAwaited}: no ring while the sequencer's caller polls for it), and what
 * the channel refuses goes from the duty cycle as an ordinary send.
 */
@Timeout(10)
class BroadcastEndpointTest {
    /** An ORDER channel that records how each message was sent, and refuses awaited sends while told to. */
    private static final class Recording implements OrderChannel {
        final List<String> sends = new ArrayList<>();
        final List<OrderMessage> messages = new ArrayList<>();
        boolean refuseAwaited;

        @Override
        public void serve(Endpoint endpoint) {
        }

        @Override
        public int maxMessageBytes() {
            return 1 << 20;
        }

        @Override
        public int maxTrySendLength() {
            return 4096;
        }

        @Override
        public boolean trySend(int destination, DirectBuffer buffer, int offset, int length) {
            return record("trySend", destination, buffer, offset, length);
        }

        @Override
        public boolean trySendAwaited(int destination, DirectBuffer buffer, int offset, int length) {
            return !refuseAwaited && record("trySendAwaited", destination, buffer, offset, length);
        }

        private boolean record(String how, int destination, DirectBuffer buffer, int offset, int length) {
            sends.add(how + " " + destination);
            messages.add(OrderMessage.decode(new OrderFlyweight().wrap(buffer, offset), length, 2));
            return true;
        }

        @Override
        public void send(int destination, DirectBuffer buffer, int offset, int length, long timeoutNs) {
            record("send", destination, buffer, offset, length);
        }

        @Override
        public void fail(int node, String reason) {
        }
    }

    @Test
    void aSubmitterOffersItsSubmitToTheStaticSequencerAsAnAwaitedMessage() {
        Recording channel = new Recording();
        BroadcastEndpoint endpoint = new BroadcastEndpoint(channel, 1, 2, Sequencer.STATIC, 0, 1_000_000_000L);
        try {
            endpoint.submit(new byte[] {7});

            assertEquals(List.of("trySendAwaited 0"), channel.sends, "sent by the submitting thread, at once");
            OrderMessage.Submit s = assertInstanceOf(OrderMessage.Submit.class, channel.messages.getFirst());
            assertEquals(1, s.origin());
            assertArrayEquals(new byte[] {7}, s.payload());
        } finally {
            endpoint.onClose();
        }
    }

    @Test
    void aRefusedSubmitGoesFromTheDutyCycle() {
        Recording channel = new Recording();
        channel.refuseAwaited = true;
        BroadcastEndpoint endpoint = new BroadcastEndpoint(channel, 1, 2, Sequencer.STATIC, 0, 1_000_000_000L);
        try {
            endpoint.submit(new byte[] {7});
            endpoint.doWork();

            assertEquals(List.of("trySend 0"), channel.sends);
        } finally {
            endpoint.onClose();
        }
    }
}
