package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
import dev.cumulus.array.Distribution;

/**
 * What a collective {@code sharedXxxArray} call asked for; every node must ask for the same. Travels to the name's
 * registry node (public only for the RPC codec).
 */
public record ArraySpec(String name, ElementKind kind, int rows, int cols, int blockRows, int blockCols,
                        Distribution distribution) {

    /** Checks the shape; throws a message that names the array and says what to change. */
    public ArraySpec validate() {
        if (name == null || name.isEmpty()) {
            throw new CumulusException("shared array name is empty; give every array a name all nodes use");
        }
        int nameBytes = name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (nameBytes > CoherenceWire.MAX_NAME_BYTES) {
            throw new CumulusException("shared array name '" + name.substring(0, 40) + "...' is " + nameBytes
                + " bytes long in UTF-8; use a name of at most " + CoherenceWire.MAX_NAME_BYTES + " bytes");
        }
        if (distribution == null) {
            throw new CumulusException("shared array '" + name + "': distribution is null; use one of "
                + java.util.Arrays.toString(Distribution.values()));
        }
        if (rows < 1 || cols < 1) {
            throw new CumulusException("shared array '" + name + "': shape " + rows + "x" + cols
                + " is empty or negative; rows and columns must be at least 1");
        }
        if ((long) rows * cols > Integer.MAX_VALUE) {
            throw new CumulusException("shared array '" + name + "': " + rows + "x" + cols
                + " has more than 2^31-1 elements");
        }
        if (blockRows < 1 || blockCols < 1 || blockRows > rows || blockCols > cols) {
            throw new CumulusException("shared array '" + name + "': partition " + blockRows + "x" + blockCols
                + " must be at least 1x1 and at most the array's " + rows + "x" + cols);
        }
        if (rows % blockRows != 0 || cols % blockCols != 0) {
            throw new CumulusException("shared array '" + name + "': partition " + blockRows + "x" + blockCols
                + " does not divide the array's " + rows + "x" + cols + "; choose a partition size that divides "
                + "each dimension");
        }
        return this;
    }

    /** {@code double[512x512] in 32x32 partitions, BLOCK}. */
    public String describe() {
        return kind.javaName() + "[" + rows + "x" + cols + "] in " + blockRows + "x" + blockCols + " partitions, "
            + distribution;
    }
}
