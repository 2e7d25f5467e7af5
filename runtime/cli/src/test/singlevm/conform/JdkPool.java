package conform;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Happens-before through JDK synchronization inside a node: a thread on another node waits (a cluster monitor) for
 * main to rewrite a shared array, then hands a task reading it to a JDK executor made there ({@code submit} and
 * {@code Future.get} order the two threads in JDK code the runtime does not see). The pool's thread must read the
 * array as main left it, every round.
 */
final class JdkPool implements Conform.Case {
    static final int LENGTH = 4096;
    static final int ROUNDS = 5;

    static final class Shared {
        final int[] values = new int[LENGTH];
        int round;
        int done;
        String report = "";
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shared s = new Shared();
        Thread worker = new Thread(() -> {
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                for (int r = 1; r <= ROUNDS; r++) {
                    synchronized (s) {
                        while (s.round < r) {
                            s.wait();
                        }
                    }
                    int expected = r;
                    Future<Integer> stale = pool.submit(() -> {
                        int count = 0;
                        for (int v : s.values) {
                            count += v == expected ? 0 : 1;
                        }
                        return count;
                    });
                    int found = stale.get();
                    synchronized (s) {
                        s.report += " " + found;
                        s.done = r;
                        s.notifyAll();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                pool.shutdown();
            }
        });
        worker.start();
        for (int r = 1; r <= ROUNDS; r++) {
            synchronized (s) {
                for (int i = 0; i < LENGTH; i++) {
                    s.values[i] = r;
                }
                s.round = r;
                s.notifyAll();
                while (s.done < r) {
                    s.wait();
                }
            }
        }
        worker.join();
        out.println("stale reads per round:" + s.report);
    }
}
