package conform.bugs;

/**
 * A record's generated {@code equals}, {@code hashCode} and {@code toString} called on another node before any
 * woven code read the record's fields: one JVM prints {@code true 5 R[x=5]}.
 */
public final class RecordEquals {
    record R(int x) {
    }

    static final class Holder {
        R r;
        String seen;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        h.r = new R(5);
        Thread t = new Thread(() -> h.seen = h.r.equals(new R(5)) + " " + (h.r.hashCode() == new R(5).hashCode()
            ? 5 : -1) + " " + h.r);
        t.start();
        t.join();
        System.out.println(h.seen);
    }
}
