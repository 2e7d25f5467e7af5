package conform;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Threads started through the JDK's builders and executors rather than {@code new Thread(...).start()}:
 * {@code Thread.ofPlatform()}, {@code Thread.ofVirtual()}, {@code Thread.startVirtualThread} and a virtual-thread-per
 * -task executor; their tasks update a shared object under its monitor and main reads it after {@code join}.
 */
final class Builders implements Conform.Case {
    static final class Tally {
        long sum;
        String names = "";

        synchronized void add(long v, String name) {
            sum += v;
            names += name + ",";
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Tally tally = new Tally();
        Thread p = Thread.ofPlatform().name("plat").start(() -> tally.add(1, Thread.currentThread().getName()));
        p.join();
        Thread v = Thread.ofVirtual().name("virt").start(() -> tally.add(10, Thread.currentThread().getName()));
        v.join();
        Thread sv = Thread.startVirtualThread(() -> tally.add(100, "sv" + Thread.currentThread().isVirtual()));
        sv.join();
        Thread unstarted = Thread.ofPlatform().name("unstarted").unstarted(() -> tally.add(1000,
            Thread.currentThread().getName()));
        unstarted.start();
        unstarted.join();
        long fromFutures = 0;
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> fs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long k = i;
                fs.add(ex.submit(() -> {
                    tally.add(10_000, "task");
                    return k * k;
                }));
            }
            for (Future<Long> f : fs) {
                fromFutures += f.get();
            }
        }
        synchronized (tally) {
            out.println("sum " + tally.sum + " names " + tally.names + " futures " + fromFutures + " alive "
                + p.isAlive() + v.isAlive() + sv.isAlive());
        }
    }
}
