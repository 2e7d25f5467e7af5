package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM206: locks on strings, boxes and JDK class literals; program objects, plain Objects and arrays are fine. */
@Timeout(60)
class JdkLockCheckerTest {
    @TempDir
    Path tmp;

    private static JdkLockChecker checker(ClassIndex index) {
        return new JdkLockChecker(index, new SingleVmFacts(index));
    }

    @Test
    void locksOnJdkValuesAreReported() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Locks {
                    static final String LITERAL = "lock";
                    static String name = new String("n");
                    Integer boxed = 1;
                    int count;
                    void run(String param) throws InterruptedException {
                        synchronized (LITERAL) { count++; }
                        synchronized (name) { count++; }
                        synchronized (boxed) { count++; }
                        synchronized (Integer.valueOf(3)) { count++; }
                        synchronized (param) { param.wait(10); }
                        Object o = "x";
                        synchronized (o) { o.notifyAll(); }
                        synchronized (String.class) { count++; }
                    }
                }
                class ProgramLocks {
                    private final Object lock = new Object();
                    private final int[] cells = new int[2];
                    int count;
                    synchronized void inc() { count++; }
                    void run(Object any) throws InterruptedException {
                        synchronized (lock) { count++; lock.notifyAll(); }
                        synchronized (cells) { cells[0]++; }
                        synchronized (this) { wait(1); }
                        synchronized (ProgramLocks.class) { count++; }
                        synchronized (any) { count++; }
                    }
                }
                """)) {
            String local = ", whose monitor is node-local with --single-vm: threads on different nodes neither exclude "
                    + "nor wake each other through it";
            String string = "a String (moved between nodes by value)";
            String integer = "a boxed Integer (moved between nodes by value)";
            assertEquals(List.of("CUM206 run@8: method 'run' synchronizes on " + string + local,
                    "CUM206 run@9: method 'run' synchronizes on " + string + local,
                    "CUM206 run@10: method 'run' synchronizes on " + integer + local,
                    "CUM206 run@11: method 'run' synchronizes on " + integer + local,
                    "CUM206 run@12: method 'run' synchronizes on " + string + local,
                    "CUM206 run@14: method 'run' synchronizes on " + string + local,
                    "CUM206 run@15: method 'run' synchronizes on String.class" + local),
                    fx.check(JdkLockCheckerTest::checker, "Locks"));
            assertEquals(List.of(), fx.check(JdkLockCheckerTest::checker, "ProgramLocks"));
        }
    }

    @Test
    void waitAndNotifyOfAJdkValueAndLambdasAreReported() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Signals {
                    static final String READY = "ready";
                    void await(Long key) throws InterruptedException {
                        key.wait();
                    }
                    void signal() {
                        READY.notify();
                    }
                    void start() {
                        new Thread(() -> { synchronized (READY) { } }).start();
                    }
                }
                """)) {
            String local = ", whose monitor is node-local with --single-vm: threads on different nodes neither exclude "
                    + "nor wake each other through it";
            assertEquals(List.of("CUM206 await@5: method 'await' calls wait() of a boxed Long (moved between nodes by "
                            + "value)" + local,
                    "CUM206 signal@8: method 'signal' calls notify() of a String (moved between nodes by value)"
                            + local,
                    "CUM206 lambda$start$0@11: a lambda of Signals synchronizes on a String (moved between nodes by "
                            + "value)" + local),
                    fx.check(JdkLockCheckerTest::checker, "Signals"));
        }
    }
}
