package litmus;

/**
 * Writes after publication: the writer makes a new object and a new array larger than a copy block, fills them, stores
 * them into plain fields of an object main homes (the object is thereby published to main's node and becomes a copy on
 * the writer's; the large array stays homed at the writer), writes a volatile, then writes both again and writes a
 * second volatile. Forbidden: the reader, after the first volatile, seeing anything but the first or second values;
 * after the second, anything but the second.
 */
final class PublishedWrites extends WriterReader {
    private static final int LARGE = 3000;
    private final Holder holder = new Holder();
    private final Flag first = new Flag();
    private final Flag second = new Flag();

    static final class Holder {
        Pair pair;
        long[] large;
    }

    PublishedWrites() {
        super("mp-published", "saw every write");
    }

    @Override
    void write(int r) {
        Pair p = new Pair();
        p.x = r;
        p.y = r;
        long[] large = new long[LARGE];
        java.util.Arrays.fill(large, r);
        holder.pair = p;
        holder.large = large;
        first.v = r;
        p.x = -r;
        p.y = -r;
        large[0] = -r;
        large[LARGE / 2] = -r;
        large[LARGE - 1] = -r;
        second.v = r;
    }

    @Override
    void read(int r) {
        awaitAtLeast(first, r);
        Pair p = holder.pair;
        long[] large = holder.large;
        boolean firstOk = p != null && large != null && either(p.x, r) && either(p.y, r) && either(large[0], r)
            && large[1] == r && either(large[LARGE / 2], r) && large[LARGE / 2 + 1] == r && either(large[LARGE - 1], r);
        awaitAtLeast(second, r);
        boolean secondOk = p != null && large != null && p.x == -r && p.y == -r && large[0] == -r
            && large[LARGE / 2] == -r && large[LARGE - 1] == -r && large[LARGE - 2] == r;
        seen.a = firstOk ? 1 : 0;
        seen.b = secondOk ? 1 : 0;
        seen.c = p == null ? 0 : p.x;
        seen.d = large == null ? 0 : large[LARGE - 1];
    }

    private static boolean either(long v, long r) {
        return v == r || v == -r;
    }

    @Override
    void judge(int r) {
        if (seen.a == 1 && seen.b == 1) {
            allowed(0);
        } else {
            forbidden(r, "after the first volatile the values were " + (seen.a == 1 ? "" : "not ")
                + "as written, after the second " + (seen.b == 1 ? "" : "not ") + "(the object's x " + seen.c
                + ", the large array's last element " + seen.d + "; " + -r + " written last)");
        }
    }
}
