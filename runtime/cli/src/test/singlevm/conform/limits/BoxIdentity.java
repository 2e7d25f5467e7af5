package conform.limits;

/**
 * Identity of boxed values that crossed nodes: boxes move by value, so one {@code Integer} outside the
 * {@code valueOf} cache stored in two fields on another node arrives as two objects ({@code ==} false); the cached
 * ones (-128..127) stay one. One JVM prints {@code true true}; the single-VM mode prints {@code false true}.
 */
public final class BoxIdentity {
    static final class Holder {
        Integer x;
        Integer y;
        Integer small;
        Integer alsoSmall;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        Thread t = new Thread(() -> {
            Integer big = 5000;
            h.x = big;
            h.y = big;
            h.small = 7;
            h.alsoSmall = 7;
        });
        t.start();
        t.join();
        System.out.println((h.x == h.y) + " " + (h.small == h.alsoSmall));
    }
}
