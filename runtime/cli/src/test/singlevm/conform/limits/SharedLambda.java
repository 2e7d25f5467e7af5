package conform.limits;

import java.util.Comparator;

/**
 * A Comparator lambda (not a Runnable or Callable: it stays on its node) kept in a shared field and called by a
 * thread on another node: one JVM prints {@code compare -1}; the single-VM run fails with a message calling it a lambda
 * implementing {@code java.util.Comparator} made in this class.
 */
public final class SharedLambda {
    static final class Holder {
        Comparator<String> order;
        int result;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        h.order = (a, b) -> Integer.compare(a.length(), b.length());
        Thread t = new Thread(() -> h.result = h.order.compare("ab", "abc"), "comparer");
        t.start();
        t.join();
        System.out.println("compare " + h.result);
    }
}
