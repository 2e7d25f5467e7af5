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
 */
public record CodecLimits(int maxMessageBytes, int maxStringChars, int maxElements, int maxDepth,
                          int maxClassNameLength, int maxStackFrames, int maxCauseDepth) {

    /** 256 MiB messages, 16 Mi chars per string, 16 Mi elements, depth 512, names of 1024 chars, 1024 frames, 16 causes. */
    public static final CodecLimits DEFAULTS = new CodecLimits(256 << 20, 16 << 20, 16 << 20, 512, 1024, 1024, 16);

    public CodecLimits {
        positive("maxMessageBytes", maxMessageBytes);
        positive("maxStringChars", maxStringChars);
        positive("maxElements", maxElements);
        positive("maxDepth", maxDepth);
        positive("maxClassNameLength", maxClassNameLength);
        positive("maxStackFrames", maxStackFrames);
        positive("maxCauseDepth", maxCauseDepth);
        if (maxMessageBytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("maxMessageBytes must be at most " + (Integer.MAX_VALUE - 64)
                + " but was " + maxMessageBytes);
        }
    }

    private static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive but was " + value);
        }
    }
}
