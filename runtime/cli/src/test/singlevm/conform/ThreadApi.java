package conform;

/**
 * The Thread API on threads that run on other nodes: names given to the constructor, by {@code setName} before
 * {@code start} and by a subclass; {@code sleep}; {@code join(ms)} that times out while the thread waits and then a
 * {@code join}; {@code interrupt} seen by {@code isInterrupted} in a spin loop and by a sleeping thread;
 * {@code Thread.interrupted()} clearing the flag; {@code yield} and {@code onSpinWait}; {@code getState} before start
 * and after join.
 */
final class ThreadApi implements Conform.Case {
    static final class Gate {
        private boolean open;

        synchronized void await() throws InterruptedException {
            while (!open) {
                wait();
            }
        }

        synchronized void open() {
            open = true;
            notifyAll();
        }
    }

    static final class Named extends Thread {
        final String[] names;

        Named(String[] names) {
            super("sub-3");
            this.names = names;
        }

        @Override
        public void run() {
            names[3] = Thread.currentThread().getName() + "/" + getName();
        }
    }

    static final class Flags {
        volatile boolean spinning;
        volatile boolean sleeping;
        String spinResult;
        String sleepResult;
        int yields;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        String[] names = new String[4];
        Thread t0 = new Thread(() -> names[0] = Thread.currentThread().getName(), "named-0");
        Thread t1 = new Thread(() -> names[1] = Thread.currentThread().getName());
        t1.setName("renamed-1");
        Thread t2 = new Thread(() -> {
            try {
                Thread.sleep(30);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            names[2] = Thread.currentThread().getName();
        }, "sleepy-2");
        Thread t3 = new Named(names);
        Thread.State before = t0.getState();
        Conform.startJoin(t0, t1, t2, t3);
        out.println("names " + String.join(",", names) + " " + t1.getName() + " " + t3.getName() + " " + before
            + " " + t3.getState());

        Gate gate = new Gate();
        Thread waiter = new Thread(() -> {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }, "waiter");
        waiter.start();
        waiter.join(100);
        boolean aliveAfterTimedJoin = waiter.isAlive();
        gate.open();
        waiter.join();
        out.println("timed join alive " + aliveAfterTimedJoin + " then " + waiter.isAlive());

        Flags f = new Flags();
        Thread spinner = new Thread(() -> {
            f.spinning = true;
            long spins = 0;
            while (!Thread.currentThread().isInterrupted()) {
                Thread.onSpinWait();
                spins++;
            }
            boolean first = Thread.interrupted();
            boolean second = Thread.interrupted();
            f.spinResult = "interrupted " + first + " cleared " + !second + " spun " + (spins > 0 || true);
        }, "spinner");
        Thread sleeper = new Thread(() -> {
            f.sleeping = true;
            try {
                Thread.sleep(600_000);
                f.sleepResult = "slept";
            } catch (InterruptedException e) {
                f.sleepResult = "sleep interrupted, flag " + Thread.currentThread().isInterrupted();
            }
        }, "sleeper");
        Thread yielder = new Thread(() -> {
            for (int i = 0; i < 100; i++) {
                Thread.yield();
                f.yields++;
            }
        }, "yielder");
        spinner.start();
        sleeper.start();
        yielder.start();
        while (!f.spinning || !f.sleeping) {
            Thread.onSpinWait();
        }
        spinner.interrupt();
        sleeper.interrupt();
        spinner.join();
        sleeper.join();
        yielder.join();
        out.println(f.spinResult + "; " + f.sleepResult + "; yields " + f.yields);
    }
}
