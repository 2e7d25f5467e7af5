package svit;

import dev.cumulus.SingleVm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * SingleVm's executor and shared collections, used from tasks that run on every node: the gate makes each of the
 * workers take one task (so every worker shows where it runs), then tasks fill a shared map, list and priority queue.
 */
public class Spread {
    public static void main(String[] args) throws Exception {
        int workers = Integer.parseInt(args[0]);
        ExecutorService pool = SingleVm.executor(workers);
        try {
            use(pool, workers);
        } finally {
            pool.shutdownNow(); // a failure ends the run at once instead of leaving the workers waiting
        }
    }

    private static void use(ExecutorService pool, int workers) throws Exception {
        Gate gate = new Gate(workers);
        List<Future<?>> gates = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            gates.add(pool.submit(() -> {
                gate.arrive();
                System.out.println("gate passed by " + Thread.currentThread().getName());
                return null;
            }));
        }
        for (Future<?> f : gates) {
            f.get();
        }
        Map<String, Integer> squares = SingleVm.map();
        List<String> names = SingleVm.list();
        Queue<Integer> order = SingleVm.priorityQueue();
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            int n = i;
            futures.add(pool.submit(() -> {
                squares.put("k" + n, n * n);
                names.add(Thread.currentThread().getName());
                order.add(n * 7 % 41);
                return n * n;
            }));
        }
        long sum = 0;
        for (Future<Integer> f : futures) {
            sum += f.get();
        }
        String failure;
        try {
            pool.submit(() -> {
                throw new IllegalStateException("boom");
            }).get();
            failure = "none";
        } catch (ExecutionException e) {
            failure = e.getCause().getClass().getName() + " " + e.getCause().getMessage() + " / " + e.getMessage();
        }
        pool.shutdown();
        boolean ended = pool.awaitTermination(2, TimeUnit.MINUTES);
        StringBuilder polled = new StringBuilder();
        for (Integer x = order.poll(); x != null; x = order.poll()) {
            polled.append(x).append(x == 40 ? "" : ",");
        }
        System.out.println("sum=" + sum + " map=" + squares.size() + " k7=" + squares.get("k7") + " list="
            + names.size() + " ended=" + ended + " failure=" + failure);
        System.out.println("polled " + polled);
    }
}
