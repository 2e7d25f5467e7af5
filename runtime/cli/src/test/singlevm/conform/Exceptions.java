package conform;

/**
 * Exceptions and monitors: exceptions thrown inside {@code synchronized} blocks and methods release the cluster
 * monitor (later holders get it and see the writes made before the throw); {@code try/finally} and early returns
 * inside nested monitors; an uncaught exception reaches a program class's UncaughtExceptionHandler with its class
 * and message, and {@code join} returns after the handler ran.
 */
final class Exceptions implements Conform.Case {
    static final class Account {
        long balance = 100;
        int failures;

        synchronized void withdraw(long amount) {
            if (amount > balance) {
                failures++;
                throw new IllegalStateException("insufficient: " + balance + " < " + amount);
            }
            balance -= amount;
        }
    }

    static final class Log implements Thread.UncaughtExceptionHandler {
        String caught = "";

        @Override
        public synchronized void uncaughtException(Thread t, Throwable e) {
            caught += t.getName() + " " + e.getClass().getName() + " " + e.getMessage() + ";";
        }

        synchronized String caught() {
            return caught;
        }
    }

    static int nested(Object a, Object b, int[] box, int k) {
        synchronized (a) {
            try {
                synchronized (b) {
                    box[0] += k;
                    if (k % 2 == 0) {
                        return box[0];
                    }
                    box[1]++;
                }
            } finally {
                box[2]++;
            }
            return -box[0];
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Account acct = new Account();
        Object lockA = new Object();
        Object lockB = new Object();
        int[] box = new int[3];
        String[] msgs = new String[4];
        Thread[] ts = new Thread[4];
        for (int k = 0; k < 4; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                String m = "";
                for (int i = 0; i < 5; i++) {
                    try {
                        acct.withdraw(15);
                        m += "+";
                    } catch (IllegalStateException e) {
                        m += "x";
                    }
                    try {
                        synchronized (lockA) {
                            box[1] += 100;
                            if (i % 2 == 0) {
                                throw new UnsupportedOperationException("in lockA");
                            }
                        }
                    } catch (UnsupportedOperationException e) {
                        m += "u";
                    }
                    nested(lockA, lockB, box, i + me);
                }
                msgs[me] = m.replace("+", "").replace("x", "");
            });
        }
        Conform.startJoin(ts);
        synchronized (lockA) {
            out.println("balance " + acct.balance + " failures " + acct.failures + " box " + box[0] + " " + box[1]
                + " " + box[2] + " " + msgs[0] + msgs[1] + msgs[2] + msgs[3]);
        }
        Log log = new Log();
        Thread thrower = new Thread(() -> {
            throw new IllegalArgumentException("bad argument " + Thread.currentThread().getName());
        }, "thrower");
        thrower.setUncaughtExceptionHandler(log);
        Thread stater = new Thread(() -> {
            Object o = null;
            synchronized (acct) {
                acct.balance = -1;
                o.hashCode();
            }
        }, "stater");
        stater.setUncaughtExceptionHandler(log);
        thrower.start();
        thrower.join();
        stater.start();
        stater.join();
        synchronized (acct) {
            out.println("caught " + log.caught().replaceAll("because .*;", ";") + " balance " + acct.balance);
        }
    }
}
