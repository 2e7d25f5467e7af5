package dev.cumulus.internal.transport;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.File;
import java.nio.ByteBuffer;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The IPC-only driver parks between its duty cycles ({@link DriverHost#IPC_PARK_NS}) instead of spinning: a stream
 * many times longer than its publication's window still flows, in order, since each of the driver's wake-ups moves
 * the publication's limit on (a driver that stopped doing so would leave the publisher back-pressured for good).
 */
@Timeout(60)
class DriverHostTest {
    /** The smallest term Aeron takes: a window of half of it, so the limit must move about a thousand times. */
    private static final String CHANNEL = "aeron:ipc?term-length=65536";
    private static final int STREAM = 1001;
    private static final int MESSAGE = 1024;
    private static final int MESSAGES = 16 * 1024; // 16 MiB

    @Test
    void anIpcStreamFarLongerThanItsWindowFlowsInOrderThroughTheParkingDriver() {
        String directory = System.getProperty("java.io.tmpdir") + "/cumulus-test-" + UUID.randomUUID();
        try (DriverHost driver = DriverHost.start(directory, true, System.err::println);
             Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.directory()));
             Subscription in = aeron.addSubscription(CHANNEL, STREAM);
             Publication out = aeron.addPublication(CHANNEL, STREAM)) {
            while (!out.isConnected()) {
                Thread.onSpinWait();
            }
            UnsafeBuffer message = new UnsafeBuffer(ByteBuffer.allocateDirect(MESSAGE));
            long[] next = {0};
            int sent = 0;
            while (next[0] < MESSAGES) {
                if (sent < MESSAGES) {
                    message.putLong(0, sent);
                    message.putLong(MESSAGE - Long.BYTES, ~(long) sent);
                    if (out.offer(message, 0, MESSAGE) > 0) {
                        sent++;
                    }
                }
                in.poll((buffer, offset, length, header) -> {
                    assertEquals(MESSAGE, length);
                    assertEquals(next[0], buffer.getLong(offset), "messages arrive in the order sent");
                    assertEquals(~next[0], buffer.getLong(offset + MESSAGE - Long.BYTES), "a message arrives whole");
                    next[0]++;
                }, 16);
            }
            assertTrue(out.position() >= (long) MESSAGES * MESSAGE, "every message left: " + out.position());
        }
        assertFalse(new File(directory).exists(), "the driver's directory is gone after close");
    }
}
