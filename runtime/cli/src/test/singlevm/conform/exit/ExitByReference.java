package conform.exit;

import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;

/**
 * {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} called through method references, in a thread on
 * another node under {@code --single-vm}: the first reference's call ends the run with 9.
 */
public final class ExitByReference {
    public static void main(String[] args) throws InterruptedException {
        Thread t = new Thread(ExitByReference::exitByReference);
        t.start();
        t.join();
        System.out.println("main: after join (never printed)");
    }

    private static void exitByReference() {
        IntConsumer exit = System::exit;
        ObjIntConsumer<Runtime> runtimeExit = Runtime::exit;
        IntConsumer halt = Runtime.getRuntime()::halt;
        System.out.println("thread: System::exit(9)");
        exit.accept(9);
        runtimeExit.accept(Runtime.getRuntime(), 10);
        halt.accept(11);
    }
}
