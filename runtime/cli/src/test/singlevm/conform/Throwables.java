package conform;

/**
 * Exceptions that cross nodes. A worker catches a JDK exception (with a cause and a suppressed exception) and stores
 * it in a volatile field; main reads it. A worker makes a program exception with a JDK cause in a holder it locked (so
 * the holder stays homed on the worker's node and main reads a copy of it and of the exception); another in a holder
 * that never left the worker's node before the worker stored it in main's array (so the holder and the exception are
 * published to main's node). Main prints each one's class, message, cause, suppressed exceptions and top frames as
 * one JVM has them. A JDK exception whose cause is a program exception main holds already, and which suppresses that
 * exception's own JDK cause, arrives with it.
 */
final class Throwables implements Conform.Case {
    static final class Outcome {
        volatile Throwable failure;
    }

    static final class AppException extends RuntimeException {
        final int code;

        AppException(String message, int code, Throwable cause) {
            super(message, cause);
            this.code = code;
        }
    }

    static final class Holder {
        AppException failure;
    }

    static int divide(int a, int b) {
        return a / b;
    }

    static void compute(int b) {
        try {
            divide(1, b);
        } catch (ArithmeticException e) {
            IllegalStateException failure = new IllegalStateException("compute failed for " + b, e);
            failure.addSuppressed(new UnsupportedOperationException("cleanup failed"));
            throw failure;
        }
    }

    static AppException fail(int code) {
        try {
            divide(code, 0);
            return null;
        } catch (ArithmeticException e) {
            return new AppException("boom", code, e);
        }
    }

    static String describe(Throwable e) {
        Throwable cause = e.getCause();
        return e.getClass().getName() + " '" + e.getMessage() + "' at " + e.getStackTrace()[0].getMethodName()
            + ", cause " + cause.getClass().getName() + " '" + cause.getMessage() + "' at "
            + cause.getStackTrace()[0].getMethodName() + ", suppressed " + e.getSuppressed().length;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Outcome outcome = new Outcome();
        Thread worker = new Thread(() -> {
            try {
                compute(0);
            } catch (IllegalStateException e) {
                outcome.failure = e;
            }
        });
        Conform.startJoin(worker);
        Throwable jdk = outcome.failure;
        out.println(describe(jdk) + " '" + jdk.getSuppressed()[0].getMessage() + "'");
        out.println(jdk);

        Holder[] made = new Holder[1];
        Thread maker = new Thread(() -> {
            Holder h = new Holder();
            synchronized (h) {
                h.failure = fail(42);
            }
            made[0] = h;
        });
        Conform.startJoin(maker);
        AppException app = made[0].failure;
        out.println(describe(app) + ", code " + app.code);
        out.println(app + " " + (app.getCause() == app.getCause()) + " " + (app.getStackTrace().length > 0));

        Holder[] published = new Holder[1];
        Thread publisher = new Thread(() -> {
            Holder h = new Holder();
            h.failure = fail(7);
            published[0] = h;
        });
        Conform.startJoin(publisher);
        AppException moved = published[0].failure;
        out.println(describe(moved) + ", code " + moved.code);
        for (int k = 0; k < 2; k++) { // two workers in a row: one at least on another node than main's
            out.println(metTwiceAfterTheProgramExceptionMoved());
        }
    }

    static final class Handover {
        AppException failure;
        Throwable later;
        int stage;
    }

    /**
     * A worker hands main a program exception with a JDK cause; once main read it, the worker stores a JDK exception
     * whose cause is the program exception and which suppresses that same JDK cause. Main, already holding the
     * program exception, still gets the suppressed one (it was dropped: its text only referred back to it).
     */
    private static String metTwiceAfterTheProgramExceptionMoved() throws InterruptedException {
        Handover h = new Handover();
        Thread worker = new Thread(() -> {
            ArithmeticException cause = new ArithmeticException("shared cause");
            AppException failure = new AppException("handed over", 3, cause);
            synchronized (h) {
                h.failure = failure;
                h.stage = 1;
                h.notifyAll();
                while (h.stage != 2) {
                    try {
                        h.wait();
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                IllegalStateException later = new IllegalStateException("later", failure);
                later.addSuppressed(cause);
                h.later = later;
            }
        });
        worker.start();
        String first;
        synchronized (h) {
            while (h.stage != 1) {
                h.wait();
            }
            first = h.failure.getMessage() + " by " + h.failure.getCause().getMessage();
            h.stage = 2;
            h.notifyAll();
        }
        worker.join();
        Throwable later = h.later;
        Throwable[] suppressed = later.getSuppressed();
        return "met twice: " + first + "; " + later.getMessage() + " by " + later.getCause().getMessage()
            + ", suppressed " + suppressed.length + (suppressed.length == 1 ? " '" + suppressed[0].getMessage() + "'"
            : "");
    }
}
