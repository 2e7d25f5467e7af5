package dev.cumulus.internal.cloud;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzz target of the order message decoder: any bytes, in a buffer that ends where they do, decode to a message or
 * to {@code null} (dropped), never an exception; a decoded message encodes to bytes that decode and encode the same.
 * Run as a regression test on its seeds in every test run; {@code ./build fuzz} fuzzes it.
 */
class OrderFuzzTest {
    @FuzzTest(maxDuration = "2s")
    void orderMessage(byte[] data) {
        OrderMessage message = OrderMessage.decode(new OrderFlyweight().wrap(new UnsafeBuffer(data), 0), data.length, 4);
        if (message != null) {
            byte[] once = encode(message);
            OrderMessage again = OrderMessage.decode(new OrderFlyweight().wrap(new UnsafeBuffer(once), 0), once.length, 4);
            assertNotNull(again, "an encoded message decodes");
            assertArrayEquals(once, encode(again));
        }
    }

    private static byte[] encode(OrderMessage message) {
        byte[] bytes = new byte[OrderMessage.encodedLength(message)];
        OrderMessage.encode(message, new OrderFlyweight().wrap(new UnsafeBuffer(bytes), 0));
        return bytes;
    }
}
