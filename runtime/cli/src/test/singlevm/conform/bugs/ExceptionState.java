package conform.bugs;

/**
 * An exception of a program class made on one node and read on another through a shared field: the state it
 * inherits from {@code Throwable} (message, cause, stack trace) is lost, its own field is kept. One JVM prints
 * {@code boom 42 java.lang.ArithmeticException: inner true}. The thread runs on node 1, the holder is made on node 1
 * too (so the exception is fetched by node 0, not published to it).
 */
public final class ExceptionState {
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

    static final class Task implements Runnable {
        Holder made;

        @Override
        public void run() {
            Holder h = new Holder();
            h.failure = new AppException("boom", 42, new ArithmeticException("inner"));
            made = h;
        }
    }

    public static void main(String[] args) throws Exception {
        Task task = new Task();
        Thread t = new Thread(task);
        t.start();
        t.join();
        AppException e = task.made.failure;
        System.out.println(e.getMessage() + " " + e.code + " " + e.getCause() + " " + (e.getStackTrace().length > 0));
    }
}
