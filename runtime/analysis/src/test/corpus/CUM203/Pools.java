package corpus.cum203;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/** Violating: a JDK thread pool keeps all its workers on the node that made it. */
public class Pools {
    public static void main(String[] args) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(4); // expect: CUM203
        for (int i = 0; i < 8; i++) {
            int n = i;
            pool.execute(() -> System.out.println(n * n));
        }
        pool.shutdown();
        pool.awaitTermination(1, TimeUnit.MINUTES);
    }
}
