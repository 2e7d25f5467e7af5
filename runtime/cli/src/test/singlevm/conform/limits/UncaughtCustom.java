package conform.limits;

/**
 * An uncaught exception of a program class with no {@code (String)} constructor and a field of its own, thrown on
 * another node: the creator's handler gets a rebuilt exception (documented: it goes back as text). One JVM prints
 * {@code handled AppException uncaught 7}.
 */
public final class UncaughtCustom {
    static final class AppException extends RuntimeException {
        final int code;

        AppException(String message, int code) {
            super(message);
            this.code = code;
        }
    }

    public static void main(String[] args) throws Exception {
        String[] handled = new String[1];
        Thread t = new Thread(() -> {
            throw new AppException("uncaught", 7);
        }, "app-thrower");
        t.setUncaughtExceptionHandler((th, x) -> handled[0] = "handled " + x.getClass().getSimpleName() + " "
            + x.getMessage() + " " + (x instanceof AppException a ? a.code : -1));
        t.start();
        t.join();
        System.out.println(handled[0]);
    }
}
