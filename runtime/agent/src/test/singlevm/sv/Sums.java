package sv;

/**
 * Array access sites that meet both one node's own arrays and copies of another node's: a site that remembers an
 * array as no copy must still fill a copy it meets next, and mark the copy's elements it writes dirty.
 */
public class Sums {
    static final Object LOCK = new Object();
    static int[] shared;
    static Sums summer;

    public static void setup() {
        shared = new int[] {1, 2, 3};
        summer = new Sums();
    }

    /** Sums a local array at the same sites first, then node 0's array under the lock. */
    public static int sumLocalThenShared() {
        int[] local = {100, 200};
        int own = summer.sum(local) + sumStatic(local);
        synchronized (LOCK) {
            return summer.sum(shared) + sumStatic(shared) + own - 2 * 300;
        }
    }

    /** Writes through the same sites into a local array, then into node 0's array under the lock. */
    public static void fillLocalThenShared(int v) {
        int[] local = new int[3];
        summer.fill(local, v);
        fillStatic(local, v);
        synchronized (LOCK) {
            summer.fill(shared, v);
        }
        synchronized (LOCK) {
            fillStatic(shared, v + 1);
        }
    }

    public static int sumShared() {
        synchronized (LOCK) {
            return sumStatic(shared);
        }
    }

    int sum(int[] a) {
        int s = 0;
        for (int x : a) {
            s += x;
        }
        return s;
    }

    void fill(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            a[i] = v;
        }
    }

    static int sumStatic(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    static void fillStatic(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            a[i] = v;
        }
    }
}
