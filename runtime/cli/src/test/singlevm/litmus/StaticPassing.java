package litmus;

/**
 * Message passing through static fields (homed at node 0): the writer writes two plain statics and a static array's
 * elements, then a static volatile; the reader, which read them before (it says so through a volatile of its own),
 * waits for the static volatile. Forbidden: an older value after it.
 */
final class StaticPassing extends WriterReader {
    static long first;
    static long second;
    static final long[] ELEMENTS = new long[4];
    static volatile long signal;
    private final Flag cached = new Flag();

    StaticPassing() {
        super("mp-statics", "saw every write");
    }

    @Override
    void write(int r) {
        awaitAtLeast(cached, r);
        first = r;
        ELEMENTS[0] = r;
        ELEMENTS[3] = r;
        second = r;
        signal = r;
    }

    @Override
    void read(int r) {
        long before = first + second + ELEMENTS[0] + ELEMENTS[3];
        cached.v = r;
        while (signal < r) {
            Thread.onSpinWait();
        }
        seen.a = Math.min(Math.min(first, second), Math.min(ELEMENTS[0], ELEMENTS[3]));
        seen.b = before;
    }

    @Override
    void judge(int r) {
        judgeLowest(r, "the static volatile");
    }
}
