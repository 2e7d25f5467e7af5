package dev.cumulus.internal.node;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(10)
class ControlMessageTest {
    @Test
    void everyMessageRoundTrips() {
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
        for (ControlMessage m : List.of(new ControlMessage.Hello(), new ControlMessage.Heartbeat(),
            new ControlMessage.BarrierEnter(7, 3), new ControlMessage.BarrierRelease(Long.MAX_VALUE, -1),
            new ControlMessage.Goodbye(12), new ControlMessage.Failure(3, "node 3 went silent"))) {
            int length = ControlMessage.encode(m, buffer);
            assertEquals(m, ControlMessage.decode(buffer, 0, length));
        }
    }

    @Test
    void garbageDecodesToNullNeverThrows() {
        Random random = new Random(1);
        UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (int i = 0; i < 10_000; i++) {
            byte[] bytes = new byte[random.nextInt(64)];
            random.nextBytes(bytes);
            buffer.putBytes(0, bytes);
            ControlMessage.decode(buffer, 0, bytes.length);
        }
        buffer.putByte(0, ControlMessage.FAILURE);
        buffer.putInt(1, 1);
        buffer.putInt(5, Integer.MAX_VALUE);
        assertNull(ControlMessage.decode(buffer, 0, 20), "a declared reason longer than the message is refused");
        assertNull(ControlMessage.decode(buffer, 0, 0));
    }
}
