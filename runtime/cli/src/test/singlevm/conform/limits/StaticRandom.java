package conform.limits;

import java.util.Random;

/**
 * A Random in a static field next to a static array that a thread on another node writes: filling the statics there
 * is no error (the thread's first write needs only the array), but the thread's read of the Random is, and the run
 * stops naming the static field, its class and the node that made it. One JVM prints {@code counts 1 N}.
 */
public final class StaticRandom {
    static final Random RND = new Random(42);
    static int[] counts = new int[2];

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(() -> {
            counts[0] = 1;
            counts[1] = RND.nextInt(10);
        }, "roller");
        t.start();
        t.join();
        System.out.println("counts " + counts[0] + " " + counts[1]);
    }
}
