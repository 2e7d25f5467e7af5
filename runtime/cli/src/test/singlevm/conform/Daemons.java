package conform;

/**
 * Daemon threads on other nodes that never end: they take a monitor over and over (and sleep in between) while main
 * waits until each has made progress, and run on when main returns; as on one JVM they do not keep the run alive, so
 * it ends when main and the non-daemon threads have ended. Inside, a daemon thread sees itself as one. Runs last: its
 * threads are still running when the program ends.
 */
final class Daemons implements Conform.Case {
    static final class Beat {
        long beats;
        boolean daemon;
        boolean seen;

        synchronized void beat() {
            beats++;
            notifyAll();
        }

        synchronized void awaitBeats(long n) throws InterruptedException {
            while (beats < n) {
                wait();
            }
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        int n = 3;
        Beat[] beats = new Beat[n];
        Thread[] ts = new Thread[n];
        for (int k = 0; k < n; k++) {
            Beat b = new Beat();
            beats[k] = b;
            ts[k] = new Thread(() -> {
                synchronized (b) {
                    b.daemon = Thread.currentThread().isDaemon();
                    b.seen = true;
                }
                while (true) {
                    b.beat();
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "daemon-" + k);
            ts[k].setDaemon(true);
            ts[k].start();
        }
        boolean[] worker = new boolean[1];
        Thread plain = new Thread(() -> worker[0] = Thread.currentThread().isDaemon());
        plain.start();
        plain.join();
        for (Beat b : beats) {
            b.awaitBeats(5);
        }
        for (int k = 0; k < n; k++) {
            synchronized (beats[k]) {
                out.println(ts[k].getName() + " daemon " + ts[k].isDaemon() + " inside " + beats[k].daemon + " "
                    + beats[k].seen + " alive " + ts[k].isAlive());
            }
        }
        out.println("plain thread daemon " + worker[0]);
    }
}
