package svit;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code Thread.getState()} of threads running on another node, and {@code Thread.holdsLock} of a shared object, a
 * JDK object and a program class, as on one JVM.
 */
public class States {
    static final Object LOCK = new Object();
    static boolean go;

    static synchronized void inStatic() {
        System.out.println("static synchronized holds the class's lock: " + Thread.holdsLock(States.class));
    }

    public static void main(String[] args) throws Exception {
        List<String> jdk = new ArrayList<>();
        synchronized (jdk) {
            System.out.println("holds a JDK object's lock inside: " + Thread.holdsLock(jdk));
        }
        System.out.println("outside: " + Thread.holdsLock(jdk) + " " + Thread.holdsLock(LOCK) + " "
            + Thread.holdsLock(States.class));
        inStatic();
        Thread waiter = new Thread(States::await, "waiter");
        System.out.println("before start: " + waiter.getState());
        waiter.start();
        Thread filler = new Thread(() -> System.out.println("filler ran"), "filler");
        filler.start();
        Thread sleeper = new Thread(States::sleep, "sleeper");
        sleeper.start();
        while (waiter.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        System.out.println("waiter WAITING seen; main holds its lock: " + Thread.holdsLock(LOCK));
        while (sleeper.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        System.out.println("sleeper TIMED_WAITING seen");
        sleeper.interrupt();
        synchronized (LOCK) {
            go = true;
            LOCK.notifyAll();
        }
        waiter.join();
        sleeper.join();
        filler.join();
        System.out.println("after join: " + waiter.getState() + " " + sleeper.getState() + " " + filler.getState());
    }

    static void await() {
        synchronized (LOCK) {
            System.out.println("waiter holds its lock: " + Thread.holdsLock(LOCK));
            while (!go) {
                try {
                    LOCK.wait();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        System.out.println("waiter after its block holds the lock: " + Thread.holdsLock(LOCK));
    }

    static void sleep() {
        try {
            Thread.sleep(600_000);
            System.out.println("sleeper slept without an interrupt");
        } catch (InterruptedException e) {
            System.out.println("sleeper interrupted");
        }
    }
}
