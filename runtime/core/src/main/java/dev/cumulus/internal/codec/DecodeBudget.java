package dev.cumulus.internal.codec;

/**
 * The work and memory one message may cost its decoder ({@link CodecLimits#maxDecodeWork()},
 * {@link CodecLimits#maxDecodeHeapBytes()}). The reader charges before it does the work or allocates, so a message
 * over budget is refused with a {@link CodecException} before it costs more. One per {@link ValueReader}.
 */
final class DecodeBudget {
    /** Rough 64-bit heap sizes the memory estimate uses: generous, so the estimate is an upper bound. */
    static final int OBJECT_BYTES = 16;
    static final int REFERENCE_BYTES = 8;
    /** A node of a linked or hashed collection (a {@code HashMap.Node} is 32 bytes, a {@code TreeMap.Entry} 40) with
     *  its share of the table. */
    static final int NODE_BYTES = 48;

    private final long maxWork;
    private final long maxHeapBytes;
    private long work;
    private long heapBytes;

    DecodeBudget(CodecLimits limits) {
        this.maxWork = limits.maxDecodeWork();
        this.maxHeapBytes = limits.maxDecodeHeapBytes();
    }

    /** Work units spent so far. */
    long work() {
        return work;
    }

    /** Estimated heap bytes retained so far. */
    long heapBytes() {
        return heapBytes;
    }

    /** Work units left before the budget is spent. */
    long workLeft() {
        return maxWork - work;
    }

    /** Charges {@code units} of work (saturating; negative counts as unbounded). */
    void work(long units, int position, String what) {
        if (units < 0 || units > maxWork - work) {
            throw new CodecException("message refused at byte " + position + ": " + what + " would take the decode"
                + " work past CodecLimits.maxDecodeWork (" + maxWork + " units, " + work + " spent); a message this"
                + " costly to decode is refused, not decoded; send such values in parts");
        }
        work += units;
    }

    /** Charges one value read (the reader calls it for every tag it reads). */
    void value(int position) {
        if (work == maxWork) {
            work(1, position, "another value");
        }
        work++;
    }

    /** Charges {@code bytes} of estimated heap before they are allocated. */
    void heap(long bytes, int position, String what) {
        if (bytes < 0 || bytes > maxHeapBytes - heapBytes) {
            throw new CodecException("message refused at byte " + position + ": " + what + " would take the decoded"
                + " values past CodecLimits.maxDecodeHeapBytes (" + maxHeapBytes + " bytes, " + heapBytes
                + " estimated so far); the budget is a quarter of the receiving node's"
                + " heap, at most 1 GiB: give it more (cumulus run --jvm-arg -Xmx...) or send such values in parts");
        }
        heapBytes += bytes;
    }

    /** Adds two structural costs (see {@link HashWork}), saturating; {@link HashWork#UNKNOWN} wins. */
    static long add(long a, long b) {
        if (a < 0 || b < 0) {
            return HashWork.UNKNOWN;
        }
        long sum = a + b;
        return sum < 0 || sum > HashWork.SATURATED ? HashWork.SATURATED : sum;
    }
}
