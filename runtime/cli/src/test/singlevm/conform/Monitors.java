package conform;

/**
 * Monitor corners on other nodes: {@code synchronized} on an array; re-entrant monitors nested across objects homed on
 * different nodes; {@code notify} and {@code wait} without the monitor (IllegalMonitorStateException);
 * {@code Thread.holdsLock} of objects homed elsewhere, inside and outside their monitors; waiting on a {@code Thread}
 * object until the thread ends (a subclass and a plain {@code Thread}), as {@code Thread.join} does.
 */
final class Monitors implements Conform.Case {
    static final class Cell {
        long value;
        final Cell[] made = new Cell[1];
    }

    /** A thread whose end another thread waits for on its {@code Thread} object, as {@code join} does. */
    static final class Worker extends Thread {
        long result;

        @Override
        public void run() {
            for (int i = 1; i <= 1000; i++) {
                result += i;
            }
        }
    }

    /** Waits on {@code t} until it ends, as {@code Thread.join} is specified to (the end notifies {@code t}). */
    static void awaitEnd(Thread t) throws InterruptedException {
        synchronized (t) {
            while (t.isAlive()) {
                t.wait();
            }
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Worker worker = new Worker();
        long[] box = new long[1];
        Thread plain = new Thread(() -> box[0] = 77);
        synchronized (worker) {
            worker.start(); // it cannot end before this thread waits: its end notifies under the monitor held here
            plain.start();
            while (worker.isAlive()) {
                worker.wait();
            }
        }
        awaitEnd(plain);
        out.println("waited on threads " + worker.result + " " + box[0] + " " + worker.isAlive() + " "
            + plain.isAlive());

        int[] counts = new int[3];
        Cell shared = new Cell();
        String[] seen = new String[4];
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                Cell mine = new Cell();
                for (int i = 0; i < 200; i++) {
                    synchronized (counts) {
                        counts[i % 3]++;
                    }
                    synchronized (shared) {
                        synchronized (mine) {
                            synchronized (shared) {
                                shared.value += me + 1;
                                mine.value++;
                            }
                        }
                    }
                }
                StringBuilder b = new StringBuilder();
                b.append(Thread.holdsLock(shared)).append(Thread.holdsLock(counts));
                synchronized (counts) {
                    b.append(Thread.holdsLock(counts)).append(Thread.holdsLock(shared));
                    synchronized (shared) {
                        b.append(Thread.holdsLock(shared)).append(Thread.holdsLock(mine));
                        shared.made[0] = mine;
                    }
                    b.append(Thread.holdsLock(shared));
                }
                try {
                    shared.notify();
                    b.append(" notified");
                } catch (IllegalMonitorStateException e) {
                    b.append(" notify ").append(e.getClass().getSimpleName());
                }
                try {
                    shared.notifyAll();
                } catch (IllegalMonitorStateException e) {
                    b.append(" notifyAll ").append(e.getClass().getSimpleName());
                }
                try {
                    counts.wait(10);
                } catch (IllegalMonitorStateException e) {
                    b.append(" wait ").append(e.getClass().getSimpleName());
                } catch (InterruptedException e) {
                    b.append(" interrupted");
                }
                b.append(' ').append(mine.value);
                seen[me] = b.toString();
            });
        }
        Conform.startJoin(ts);
        synchronized (shared) {
            out.println("counts " + counts[0] + " " + counts[1] + " " + counts[2] + " value " + shared.value + " last "
                + shared.made[0].value + " holds " + Thread.holdsLock(shared) + " " + Thread.holdsLock(counts));
        }
        for (String s : seen) {
            out.println(s);
        }
    }
}
