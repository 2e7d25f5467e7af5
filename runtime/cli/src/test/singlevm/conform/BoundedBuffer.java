package conform;

/**
 * A bounded buffer with {@code wait}/{@code notifyAll}: three producers and two consumers on different nodes hand
 * 300 numbered program objects through a 4-slot ring; main checks every item arrived exactly once.
 */
final class BoundedBuffer implements Conform.Case {
    record Item(int producer, int seq) {
    }

    static final class Buffer {
        private final Item[] ring = new Item[4];
        private int head;
        private int count;

        synchronized void put(Item x) throws InterruptedException {
            while (count == ring.length) {
                wait();
            }
            ring[(head + count) % ring.length] = x;
            count++;
            notifyAll();
        }

        synchronized Item take() throws InterruptedException {
            while (count == 0) {
                wait();
            }
            Item x = ring[head];
            ring[head] = null;
            head = (head + 1) % ring.length;
            count--;
            notifyAll();
            return x;
        }
    }

    static final int PRODUCERS = 3;
    static final int PER_PRODUCER = 100;
    static final int CONSUMERS = 2;

    @Override
    public void run(Conform.Out out) throws Exception {
        Buffer buf = new Buffer();
        boolean[][] seen = new boolean[PRODUCERS][PER_PRODUCER];
        long[] consumed = new long[CONSUMERS];
        Thread[] ts = new Thread[PRODUCERS + CONSUMERS];
        for (int p = 0; p < PRODUCERS; p++) {
            int me = p;
            ts[p] = new Thread(() -> {
                try {
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        buf.put(new Item(me, i));
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        for (int c = 0; c < CONSUMERS; c++) {
            int me = c;
            ts[PRODUCERS + c] = new Thread(() -> {
                try {
                    for (int i = 0; i < PRODUCERS * PER_PRODUCER / CONSUMERS; i++) {
                        Item x = buf.take();
                        synchronized (seen) {
                            seen[x.producer()][x.seq()] = !seen[x.producer()][x.seq()];
                        }
                        consumed[me] += x.producer() * 1000L + x.seq();
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        Conform.startJoin(ts);
        int once = 0;
        for (boolean[] row : seen) {
            for (boolean b : row) {
                once += b ? 1 : 0;
            }
        }
        out.println("items seen once " + once + " total " + (consumed[0] + consumed[1]) + " left " + buf.count);
    }
}
