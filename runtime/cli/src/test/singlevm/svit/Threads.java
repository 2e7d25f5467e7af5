package svit;

import java.util.ArrayList;
import java.util.List;

/**
 * An ordinary multithreaded program, run unchanged by {@code cumulus run --single-vm}: threads (a Thread subclass and
 * lambdas) meet through a monitor and a volatile flag, count under a monitor and hand values over with wait/notify.
 */
public class Threads {
    static final Object LOCK = new Object();
    static long counter;
    static int arrived;
    static long handed;
    static volatile boolean go;

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Slot slot = new Slot();
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            int me = k;
            Thread t = k % 2 == 0 ? new Worker(k, rounds, slot) : new Thread(() -> work(me, rounds, slot), "lambda-" + k);
            threads.add(t);
            t.start();
        }
        while (true) {
            synchronized (LOCK) {
                if (arrived == n) {
                    break;
                }
            }
            Thread.onSpinWait();
        }
        go = true;
        for (Thread t : threads) {
            t.join();
        }
        boolean anyAlive = false;
        for (Thread t : threads) {
            anyAlive |= t.isAlive();
        }
        synchronized (LOCK) {
            System.out.println("counter=" + counter + " handed=" + handed + " alive=" + anyAlive);
        }
    }

    static void work(int me, int rounds, Slot slot) {
        synchronized (LOCK) {
            arrived++;
        }
        while (!go) {
            Thread.onSpinWait();
        }
        for (int i = 0; i < rounds; i++) {
            synchronized (LOCK) {
                counter++;
            }
        }
        try {
            if (me == 0) {
                for (int v = 1; v <= 100; v++) {
                    slot.put(v);
                }
            } else if (me == 1) {
                long sum = 0;
                for (int v = 1; v <= 100; v++) {
                    sum += slot.take();
                }
                synchronized (LOCK) {
                    handed = sum;
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        System.out.println("thread " + Thread.currentThread().getName() + " done");
    }
}
