package litmus;

/**
 * Message passing through a large array (three copy blocks, homed at main), written element by element and with
 * {@code System.arraycopy}, and read by the reader element by element, with {@code clone} and with
 * {@code System.arraycopy}; the reader read the array before the writer wrote. Forbidden: an older element after the
 * volatile.
 */
final class LargeArrays extends WriterReader {
    private static final int LENGTH = 3000;
    private final long[] large = new long[LENGTH];
    private final Flag cached = new Flag();
    private final Flag signal = new Flag();
    private long[] source;

    LargeArrays() {
        super("mp-large-array", "saw every element");
    }

    @Override
    void setUpWriter() {
        source = new long[LENGTH];
    }

    @Override
    void write(int r) {
        awaitAtLeast(cached, r);
        java.util.Arrays.fill(source, r);
        System.arraycopy(source, 0, large, 0, LENGTH / 2);
        for (int i = LENGTH / 2; i < LENGTH; i++) {
            large[i] = r;
        }
        signal.v = r;
    }

    @Override
    void read(int r) {
        long before = large[0] + large[LENGTH / 2] + large[LENGTH - 1];
        cached.v = r;
        awaitAtLeast(signal, r);
        long low = Long.MAX_VALUE;
        for (int i = 0; i < LENGTH; i += 7) {
            low = Math.min(low, large[i]);
        }
        long[] cloned = large.clone();
        long[] copied = new long[LENGTH];
        System.arraycopy(large, 0, copied, 0, LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            low = Math.min(low, Math.min(cloned[i], copied[i]));
        }
        seen.a = low;
        seen.b = before;
    }

    @Override
    void judge(int r) {
        judgeLowest(r, "the volatile");
    }
}
