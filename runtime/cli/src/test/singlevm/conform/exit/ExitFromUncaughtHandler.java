package conform.exit;

/**
 * Main sets a default uncaught-exception handler that calls {@code System.exit(9)}, then throws: as the java launcher
 * hands main's exception to the main thread's handler, the run ends with 9 and prints no trace.
 */
public final class ExitFromUncaughtHandler {
    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            System.out.println("handler: " + thread.getName() + " threw " + e.getMessage() + "; exit(9)");
            System.exit(9);
        });
        throw new IllegalStateException("main boom");
    }
}
