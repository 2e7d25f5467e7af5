package dev.cumulus.internal.codec;

/**
 * Bounds every length the decoder accepts (and the encoder produces), so hostile or corrupt bytes can never make a
 * node allocate without limit or recurse without end. {@link #DEFAULTS} suits ordinary calls; raise the bounds for
 * programs that ship bigger values.
 *
 * @param maxMessageBytes    bytes of one encoded message (also bounds primitive arrays, which cost no more than
 *                           their bytes)
 * @param maxStringChars     chars of one string
 * @param maxElements        elements of one object array or collection (entries of a map)
 * @param maxDepth           nesting depth of containers (arrays, collections, records, objects, optionals)
 * @param maxClassNameLength chars of a class or interface name on the wire
 * @param maxStackFrames     stack frames sent per throwable (more are dropped by the sender)
 * @param maxCauseDepth      throwables sent per cause chain (deeper causes are dropped by the sender)
 * @param maxDecodeWork      the decode budget of one message in work units: one per value read (every element,
 *                           component, field, back-reference and null counts) plus the estimated {@code hashCode},
 *                           {@code equals} and {@code compareTo} steps of putting decoded values into sets and maps
 *                           (a value costs as many steps as its structural hash visits; a key whose hash collides
 *                           with {@code k} keys already there costs {@code k + 1} times that). Checked before the
 *                           work is done, so a message that would cost more is refused, not decoded
 * @param maxDecodeHeapBytes the memory budget of one message: an estimate (64-bit JVM, generous) of the heap the
 *                           decoded values retain, charged before each allocation
 */
public record CodecLimits(int maxMessageBytes, int maxStringChars, int maxElements, int maxDepth,
                          int maxClassNameLength, int maxStackFrames, int maxCauseDepth, long maxDecodeWork,
                          long maxDecodeHeapBytes) {

    /**
     * Default decode work per message: 32 Mi units. A value read costs one unit and putting it into a set or map one
     * or two more, so this is room for a set of about 16 Mi values or a map of about 10 Mi entries (fewer than
     * {@code maxElements}: a bigger budget would let a message built to cost more, with colliding hash codes or shared
     * subtrees, run longer before it is refused).
     */
    public static final long DEFAULT_DECODE_WORK = 32L << 20;

    /**
     * 256 MiB messages, 16 Mi chars per string, 16 Mi elements, depth 512, names of 1024 chars, 1024 frames, 16
     * causes, {@link #DEFAULT_DECODE_WORK} work units, and a quarter of this JVM's maximum heap (at least 16 MiB, at
     * most 1 GiB) as the decoded heap budget of one message.
     */
    public static final CodecLimits DEFAULTS = new CodecLimits(256 << 20, 16 << 20, 16 << 20, 512, 1024, 1024, 16,
        DEFAULT_DECODE_WORK, defaultHeapBudget(Runtime.getRuntime().maxMemory()));

    /** The default decoded-heap budget for a JVM whose maximum heap is {@code maxHeapBytes}. */
    public static long defaultHeapBudget(long maxHeapBytes) {
        return Math.clamp(maxHeapBytes / 4, 16L << 20, 1L << 30);
    }

    /** These limits with another decode work budget. */
    public CodecLimits withMaxDecodeWork(long units) {
        return new CodecLimits(maxMessageBytes, maxStringChars, maxElements, maxDepth, maxClassNameLength,
            maxStackFrames, maxCauseDepth, units, maxDecodeHeapBytes);
    }

    /** These limits with another decoded-heap budget. */
    public CodecLimits withMaxDecodeHeapBytes(long bytes) {
        return new CodecLimits(maxMessageBytes, maxStringChars, maxElements, maxDepth, maxClassNameLength,
            maxStackFrames, maxCauseDepth, maxDecodeWork, bytes);
    }

    public CodecLimits {
        positive("maxMessageBytes", maxMessageBytes);
        positive("maxStringChars", maxStringChars);
        positive("maxElements", maxElements);
        positive("maxDepth", maxDepth);
        positive("maxClassNameLength", maxClassNameLength);
        positive("maxStackFrames", maxStackFrames);
        positive("maxCauseDepth", maxCauseDepth);
        positive("maxDecodeWork", maxDecodeWork);
        positive("maxDecodeHeapBytes", maxDecodeHeapBytes);
        if (maxMessageBytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("maxMessageBytes must be at most " + (Integer.MAX_VALUE - 64)
                + " but was " + maxMessageBytes);
        }
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive but was " + value);
        }
    }
}
