package dev.cumulus.internal.array;

import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.Distribution;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a collective {@code sharedXxxArray} call asked for, with the partition size resolved for the cluster; every
 * node must ask for the same. Travels to the name's registry node (public only for the RPC codec).
 */
public record ArraySpec(String name, ElementKind kind, int rows, int cols, int blockRows, int blockCols,
                        Distribution distribution) {

    /**
     * The spec of array {@code name} of {@code kind} shaped {@code shape} on a cluster of {@code nodes} nodes: default
     * blocks become one band per node along the first index (see {@link ArrayShape}).
     */
    static ArraySpec of(String name, ElementKind kind, ArrayShape shape, int nodes) {
        Objects.requireNonNull(name, "shared array name is null; give every array a name all nodes use");
        Objects.requireNonNull(shape, () -> "shared array '" + name + "': shape is null; give one such as "
            + "ArrayShape.of(rows, cols)");
        int blockRows = shape.blockRows();
        int blockCols = shape.blockCols();
        if (!shape.hasBlocks()) {
            if (shape.rows() == 1) {
                blockRows = 1;
                blockCols = band(shape.cols(), nodes);
            } else {
                blockRows = band(shape.rows(), nodes);
                blockCols = shape.cols();
            }
        }
        return new ArraySpec(name, kind, shape.rows(), shape.cols(), blockRows, blockCols, shape.distribution());
    }

    /** The largest divisor of {@code extent} that is at most {@code ceil(extent / nodes)}. */
    static int band(int extent, int nodes) {
        int share = (int) ((extent + (long) nodes - 1) / nodes);
        for (int b = share; b > 1; b--) {
            if (extent % b == 0) {
                return b;
            }
        }
        return 1;
    }

    /**
     * Checks the name and the shape (a spec may come from another node); throws a message that names the array and
     * says what to change.
     *
     * @throws NullPointerException     if the name or distribution is null
     * @throws IllegalArgumentException if the name is empty or too long, or the shape is invalid
     */
    public ArraySpec validate() {
        Objects.requireNonNull(name, "shared array name is null; give every array a name all nodes use");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("shared array name is empty; give every array a name all nodes use");
        }
        int nameBytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (nameBytes > CoherenceWire.MAX_NAME_BYTES) {
            throw new IllegalArgumentException("shared array name '" + name.substring(0, 40) + "...' is " + nameBytes
                + " bytes long in UTF-8; use a name of at most " + CoherenceWire.MAX_NAME_BYTES + " bytes");
        }
        Objects.requireNonNull(kind, () -> "shared array '" + name + "': element kind is null");
        try {
            ArrayShape.of(rows, cols).blocks(blockRows, blockCols).distribution(distribution);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw e instanceof NullPointerException
                ? new NullPointerException("shared array '" + name + "' is invalid: " + e.getMessage())
                : new IllegalArgumentException("shared array '" + name + "' is invalid: " + e.getMessage(), e);
        }
        return this;
    }

    /** {@code double[512x512] in 32x32 partitions, BLOCK}. */
    public String describe() {
        return kind.javaName() + "[" + rows + "x" + cols + "] in " + blockRows + "x" + blockCols + " partitions, "
            + distribution;
    }
}
