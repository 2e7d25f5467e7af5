package svit;

/**
 * Threads across nodes keep their Thread object's identity: a Thread subclass's name, interrupts from the creator
 * (in wait and in sleep on another node) and an uncaught-exception handler that runs with the program's Thread.
 */
public class Interrupts {
    public static void main(String[] args) throws Exception {
        Object lock = new Object();
        Thread sleeper = new Sleeper(lock);                                     // node 1
        Thread idle = new Thread(() -> { }, "idle-0");                           // node 0
        Thread napper = new Thread(() -> {                                      // node 1
            try {
                Thread.sleep(600_000);
                System.out.println("napper slept without an interrupt");
            } catch (InterruptedException e) {
                System.out.println("napper interrupted in sleep");
            }
        }, "napper");
        Thread idle2 = new Thread(() -> { }, "idle-1");                          // node 0
        Thread thrower = new Thread(() -> {                                     // node 1
            throw new IllegalStateException("thrown by " + Thread.currentThread().getName());
        }, "thrower");
        thrower.setUncaughtExceptionHandler((t, e) ->
            System.out.println("handler got " + e + " from " + t.getName() + " at " + e.getStackTrace()[0].getMethodName()));
        for (Thread t : new Thread[] {sleeper, idle, napper, idle2, thrower}) {
            t.start();
        }
        sleeper.interrupt();
        napper.interrupt();
        for (Thread t : new Thread[] {sleeper, idle, napper, idle2, thrower}) {
            t.join();
        }
        System.out.println("all joined");
    }
}
