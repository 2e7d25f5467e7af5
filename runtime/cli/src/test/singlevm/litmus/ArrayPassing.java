package litmus;

/**
 * Message passing through array elements: the writer fills three arrays (homed at the writer, the reader and main)
 * and a new array it stores into a plain field of an object main homes (so the new array is published there), then
 * writes a volatile; after that it writes the new array again and writes a second volatile. The reader, which read the
 * old arrays before, waits for each volatile in turn. Forbidden: an older element after either volatile.
 */
final class ArrayPassing extends WriterReader {
    private static final int LENGTH = 8;
    private final long[] atMain = new long[LENGTH];
    private final Holder holder = new Holder();
    private final Flag cached = new Flag();
    private final Flag filled = new Flag();
    private final Flag again = new Flag();
    private long[] atWriter;
    private long[] atReader;

    static final class Holder {
        long[] fresh;
    }

    ArrayPassing() {
        super("mp-arrays", "saw every element");
    }

    @Override
    void setUpWriter() {
        atWriter = new long[LENGTH];
    }

    @Override
    void setUpReader() {
        atReader = new long[LENGTH];
    }

    @Override
    void write(int r) {
        awaitAtLeast(cached, r);
        long[] fresh = new long[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            atWriter[i] = r;
            atReader[i] = r;
            atMain[i] = r;
            fresh[i] = r;
        }
        holder.fresh = fresh;
        filled.v = r;
        for (int i = 0; i < LENGTH; i++) {
            fresh[i] = -r;
        }
        again.v = r;
    }

    @Override
    void read(int r) {
        long before = sum(atWriter) + sum(atReader) + sum(atMain);
        cached.v = r;
        awaitAtLeast(filled, r);
        long[] fresh = holder.fresh;
        long low = Math.min(Math.min(min(atWriter), min(atReader)), min(atMain));
        boolean freshWhole = fresh != null && eachOf(fresh, r, -r);
        awaitAtLeast(again, r);
        seen.a = low;
        seen.b = fresh == null ? 0 : max(fresh);
        seen.c = before;
        seen.d = freshWhole ? 1 : 0;
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }

    private static boolean eachOf(long[] a, long v, long w) {
        for (long e : a) {
            if (e != v && e != w) {
                return false;
            }
        }
        return true;
    }

    private static long min(long[] a) {
        long m = Long.MAX_VALUE;
        for (long v : a) {
            m = Math.min(m, v);
        }
        return m;
    }

    private static long max(long[] a) {
        long m = Long.MIN_VALUE;
        for (long v : a) {
            m = Math.max(m, v);
        }
        return m;
    }

    @Override
    void judge(int r) {
        if (seen.a == r && seen.d == 1 && seen.b == -r) {
            allowed(0);
        } else {
            forbidden(r, "after the first volatile the three arrays' lowest element was " + seen.a + " (" + r
                + " written) and the new array held " + (seen.d == 1 ? "only " : "other values than ") + r + " and "
                + -r + "; after the second its highest was " + seen.b + " (" + -r + " written)");
        }
    }
}
