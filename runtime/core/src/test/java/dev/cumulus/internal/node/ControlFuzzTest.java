package dev.cumulus.internal.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Fuzz target of the control message decoder: any bytes, in a buffer that ends where they do, decode to a message or
 * to {@code null} (dropped), never an exception; a decoded message (but a failure, whose reason may not survive UTF-8)
 * encodes to one that decodes equal. Run as a regression test on its seeds in every test run; {@code ./build fuzz}
 * fuzzes it.
 */
class ControlFuzzTest {
    @FuzzTest(maxDuration = "2s")
    void controlMessage(byte[] data) {
        ControlMessage message = ControlMessage.decode(new ControlFlyweight().wrap(new UnsafeBuffer(data), 0),
            data.length);
        if (message != null && !(message instanceof ControlMessage.Failure)) {
            ExpandableArrayBuffer out = new ExpandableArrayBuffer(64);
            int length = ControlMessage.encode(message, new ControlFlyweight().wrap(out, 0));
            assertEquals(message, ControlMessage.decode(new ControlFlyweight().wrap(out, 0), length));
        }
    }
}
