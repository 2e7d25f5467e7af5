package dev.cumulus.internal.pastset;

import dev.cumulus.NotTransferableException;
import dev.cumulus.internal.codec.CodecLimits;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A local move keeps only a tuple that could reach another node: one that does not fit a message (with room for
 * what travels beside it) is refused at the move, since a remote observe could not take it and would mark it observed
 * for nothing. Small message limits stand for the real ones.
 */
class TupleCodecTest {
    private static final int MESSAGE = 64 << 10;
    private final TupleCodec codec = new TupleCodec(getClass().getClassLoader(),
        new CodecLimits(MESSAGE, 1 << 20, 1 << 20, 512, 1024, 1024, 16, CodecLimits.DEFAULT_DECODE_WORK, 16L << 20));

    @Test
    void aLocalTupleTooLargeToReachAnotherNodeIsRefusedAtTheMove() {
        int fits = MESSAGE - TupleCodec.MESSAGE_ROOM - 64;
        StoredTuple kept = codec.store(new Object[] {1, new byte[fits]}, "move into element 'big'");
        assertTrue(kept.values() != null, "kept as values: no codec on the local path");
        Object[] reply = codec.decode(codec.encode(kept.values(), "reply"), "big");
        assertArrayEquals(new byte[fits], (byte[]) reply[1], "and it travels");

        for (Object[] tooLarge : List.of(new Object[] {1, new byte[MESSAGE - TupleCodec.MESSAGE_ROOM + 1]},
            new Object[] {1, new byte[2 * MESSAGE]}, new Object[] {1, "x".repeat(MESSAGE)},
            new Object[] {1, List.of(new byte[MESSAGE - 100])})) {
            NotTransferableException refused = assertThrows(NotTransferableException.class,
                () -> codec.store(tooLarge, "move into element 'big'"));
            assertTrue(refused.getMessage().contains("move into element 'big'")
                && refused.getMessage().contains(String.valueOf(MESSAGE)), refused.getMessage());
        }
    }

    /**
     * A remote move's tuple that fits a message but leaves no room for the call's other arguments is refused as the
     * element's tuple, not later as an argument of the runtime's own service method.
     */
    @Test
    void aRemoteMovesTupleIsRefusedByItsElementWhenItLeavesNoRoomInTheMessage() {
        Object[] tuple = {new byte[MESSAGE - 200]};
        NotTransferableException refused = assertThrows(NotTransferableException.class,
            () -> codec.encodeForSending(tuple, "move into element 'big'"));
        assertTrue(refused.getMessage().startsWith("move into element 'big'"), refused.getMessage());
        assertThrows(NotTransferableException.class, () -> codec.encode(tuple, "move into element 'big'"));
    }
}
