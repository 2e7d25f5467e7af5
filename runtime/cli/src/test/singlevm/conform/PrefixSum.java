package conform;

/**
 * A parallel prefix sum (Hillis-Steele, double buffered) with a reusable barrier built from a monitor
 * ({@code wait}/{@code notifyAll} with a generation count): four threads on different nodes each own a slice of a
 * {@code long[]} and meet at the barrier after every step.
 */
final class PrefixSum implements Conform.Case {
    static final class Barrier {
        private final int parties;
        private int waiting;
        private long generation;

        Barrier(int parties) {
            this.parties = parties;
        }

        synchronized void await() throws InterruptedException {
            long gen = generation;
            if (++waiting == parties) {
                waiting = 0;
                generation++;
                notifyAll();
                return;
            }
            while (gen == generation) {
                wait();
            }
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        int n = 3000;
        int threads = 4;
        long[][] buf = {new long[n], new long[n]};
        for (int i = 0; i < n; i++) {
            buf[0][i] = i % 7 + 1;
        }
        Barrier barrier = new Barrier(threads);
        int steps = 32 - Integer.numberOfLeadingZeros(n - 1);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int lo = t * n / threads;
            int hi = (t + 1) * n / threads;
            ts[t] = new Thread(() -> {
                try {
                    for (int s = 0; s < steps; s++) {
                        long[] from = buf[s % 2];
                        long[] to = buf[(s + 1) % 2];
                        int d = 1 << s;
                        for (int i = lo; i < hi; i++) {
                            to[i] = i >= d ? from[i] + from[i - d] : from[i];
                        }
                        barrier.await();
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        Conform.startJoin(ts);
        long[] result = buf[steps % 2];
        long expected = 0;
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            expected += i % 7 + 1;
            ok &= result[i] == expected;
        }
        out.println("steps " + steps + " ok " + ok + " last " + result[n - 1] + " mid " + result[n / 2]);
    }
}
