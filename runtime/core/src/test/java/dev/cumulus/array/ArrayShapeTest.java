package dev.cumulus.array;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ArrayShape}: what it holds, and that every invalid shape is refused as it is built. */
@Timeout(30)
class ArrayShapeTest {

    @Test
    void aShapeHoldsWhatItWasGiven() {
        ArrayShape vector = ArrayShape.of(12);
        assertEquals(1, vector.rows());
        assertEquals(12, vector.cols());
        assertFalse(vector.hasBlocks());
        assertEquals(0, vector.blockRows());
        assertEquals(Distribution.BLOCK, vector.distribution());
        assertEquals("1x12 in one band per node, BLOCK", vector.toString());

        ArrayShape lu = ArrayShape.of(8, 6).blocks(2, 3).distribution(Distribution.BLOCK_CYCLIC);
        assertTrue(lu.hasBlocks());
        assertEquals(2, lu.blockRows());
        assertEquals(3, lu.blockCols());
        assertEquals("8x6 in 2x3 blocks, BLOCK_CYCLIC", lu.toString());

        assertEquals(ArrayShape.of(12).blocks(4), ArrayShape.of(1, 12).blocks(1, 4));
        assertEquals(ArrayShape.of(12).blocks(4).hashCode(), ArrayShape.of(1, 12).blocks(1, 4).hashCode());
        assertNotEquals(ArrayShape.of(12).blocks(4), ArrayShape.of(12).blocks(6));
        assertNotEquals(lu, ArrayShape.of(8, 6).blocks(2, 3));
    }

    @Test
    void aChangeMakesANewShapeAndLeavesTheOldOneAlone() {
        ArrayShape plain = ArrayShape.of(4, 4);
        ArrayShape blocked = plain.blocks(2, 2);
        ArrayShape cyclic = blocked.distribution(Distribution.BLOCK_CYCLIC);
        assertFalse(plain.hasBlocks());
        assertEquals(Distribution.BLOCK, blocked.distribution());
        assertEquals(Distribution.BLOCK_CYCLIC, cyclic.distribution());
        assertEquals(2, cyclic.blockRows());
    }

    @Test
    void badSizesAreIllegalArguments() {
        refused(IllegalArgumentException.class, () -> ArrayShape.of(0), "length 0", "at least 1");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(-3), "length -3");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(0, 5), "0x5", "at least 1");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(4, -1), "4x-1");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(1 << 16, 1 << 16), "65536x65536",
            "more than 2^31-1");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(10, 10).blocks(3, 5), "3x5",
            "does not divide", "10x10");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(4, 4).blocks(8, 4), "8x4", "at most", "4x4");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(4, 4).blocks(0, 4), "0x4", "at least 1x1");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(12).blocks(5), "1x5", "does not divide");
        refused(IllegalArgumentException.class, () -> ArrayShape.of(12).blocks(13), "1x13", "at most");
    }

    @Test
    void aOneNumberPartitionOfATwoDimensionalShapeIsUnsupported() {
        refused(UnsupportedOperationException.class, () -> ArrayShape.of(4, 4).blocks(2), "4 rows",
            "blocks(blockRows, blockCols)");
    }

    @Test
    void aNullDistributionIsANullPointer() {
        refused(NullPointerException.class, () -> ArrayShape.of(4).distribution(null), "distribution is null",
            "BLOCK_CYCLIC");
    }

    private static void refused(Class<? extends Throwable> type, Executable build, String... fragments) {
        Throwable e = assertThrows(type, build);
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "'" + f + "' missing from: " + e.getMessage());
        }
    }
}
