package conform;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Uncaught exceptions of threads on other nodes reach their creator's uncaught-exception handler as one JVM hands
 * them over: a program exception with a field of its own and no {@code (String)} constructor is the same object
 * (its class, message and field), and a JDK exception keeps its class, message and cause.
 */
final class Uncaught implements Conform.Case {
    static final class AppException extends RuntimeException {
        final int code;

        AppException(String message, int code) {
            super(message);
            this.code = code;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        String[] handled = new String[2];
        Thread app = new Thread(() -> {
            throw new AppException("uncaught", 7);
        }, "app-thrower");
        app.setUncaughtExceptionHandler((th, x) -> handled[0] = th.getName() + " " + x.getClass().getSimpleName()
            + " " + x.getMessage() + " " + (x instanceof AppException a ? a.code : -1));
        Thread io = new Thread(() -> {
            throw new UncheckedIOException("read failed", new IOException("disk"));
        }, "io-thrower");
        io.setUncaughtExceptionHandler((th, x) -> handled[1] = th.getName() + " " + x.getClass().getSimpleName()
            + " " + x.getMessage() + " caused by " + x.getCause().getClass().getSimpleName() + " "
            + x.getCause().getMessage());
        Conform.startJoin(app, io);
        out.println(handled[0]);
        out.println(handled[1]);
    }
}
