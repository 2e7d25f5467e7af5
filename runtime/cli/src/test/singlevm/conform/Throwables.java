package conform;

/**
 * Exceptions that cross nodes. A worker catches a JDK exception (with a cause and a suppressed exception) and stores
 * it in a volatile field; main reads it. A worker makes a program exception with a JDK cause in a holder it locked (so
 * the holder stays homed on the worker's node and main reads a copy of it and of the exception); another in a holder
 * that never left the worker's node before the worker stored it in main's array (so the holder and the exception are
 * published to main's node). Main prints each one's class, message, cause, suppressed exceptions and top frames as
 * one JVM has them.
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
    }
}
