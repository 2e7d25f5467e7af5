package conform.limits;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * An AtomicInteger (a mutable JDK object) in a shared field, incremented by a thread on another node: one JVM prints
 * {@code count 1000}; the single-VM run fails with a message naming the field, the class and its node.
 */
public final class SharedAtomic {
    static final class Counter {
        final AtomicInteger count = new AtomicInteger();
    }

    public static void main(String[] args) throws Exception {
        Counter c = new Counter();
        Thread t = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                c.count.incrementAndGet();
            }
        }, "incrementer");
        t.start();
        t.join();
        System.out.println("count " + c.count.get());
    }
}
