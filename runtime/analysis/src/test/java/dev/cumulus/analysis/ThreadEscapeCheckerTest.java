package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM201: JDK objects that cannot leave their node escaping to thread code, and the near misses that must not warn. */
@Timeout(60)
class ThreadEscapeCheckerTest {
    @TempDir
    Path tmp;

    private static ThreadEscapeChecker checker(ClassIndex index) {
        return new ThreadEscapeChecker(index, new SingleVmFacts(index));
    }

    @Test
    void fieldsThatThreadCodeTouchesAndHoldAJdkObject() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.*;
                class Board {
                    Map<String, Integer> counts = new HashMap<>();
                    final StringBuilder log = new StringBuilder();
                    List<String> names = List.of("a");
                    int[] cells = new int[4];
                    Object lock = new Object();
                    HashMap<String, String> mainOnly = new HashMap<>();
                    void count(String k) { counts.merge(k, 1, Integer::sum); log.append(k); names.size(); }
                    void tally() { synchronized (lock) { cells[0]++; } }
                    int summary() { return mainOnly.size(); }
                }
                class Worker extends Thread {
                    final Board board;
                    Worker(Board b) { board = b; }
                    public void run() { board.count("x"); board.tally(); }
                }
                """)) {
            assertEquals(List.of(
                    "CUM201 counts@4: field 'counts' holds a HashMap, which cannot leave the node that made it, and "
                            + "thread code touches it (Board.count() at S0.java:10); with --single-vm that thread "
                            + "may run on another node, where the access fails",
                    "CUM201 log@5: field 'log' holds a StringBuilder, which cannot leave the node that made it, and "
                            + "thread code touches it (Board.count() at S0.java:10); with --single-vm that thread "
                            + "may run on another node, where the access fails"),
                    fx.check(ThreadEscapeCheckerTest::checker, "Board"));
            assertEquals(List.of(), fx.check(ThreadEscapeCheckerTest::checker, "Worker"));
        }
    }

    @Test
    void staticsReachedFromARunnableLambdaAndATaskConstructorGivenAJdkObject() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.*;
                import java.util.concurrent.atomic.AtomicInteger;
                class Task implements Runnable {
                    final List<String> out;
                    Task(List<String> out) { this.out = out; }
                    public void run() { out.add("done"); }
                }
                class Main {
                    static final AtomicInteger DONE = new AtomicInteger();
                    static final ArrayList<String> LOCAL = new ArrayList<>();
                    public static void main(String[] args) throws Exception {
                        ArrayList<String> results = new ArrayList<>();
                        Thread a = new Thread(new Task(results));
                        Thread b = new Thread(() -> DONE.incrementAndGet());
                        Map<String, Integer> seen = new HashMap<>();
                        Thread c = new Thread(() -> seen.put("c", 1));
                        Thread d = new Thread(() -> { Map<String, Integer> own = new HashMap<>(); own.put("d", 1); });
                        String name = "e";
                        Thread e = new Thread(() -> System.out.println(name));
                        LOCAL.add("main");
                        a.start(); b.start(); c.start(); d.start(); e.start();
                    }
                }
                """)) {
            assertEquals(List.of(
                    "CUM201 DONE@10: field 'DONE' holds an AtomicInteger, which cannot leave the node that made it, "
                            + "and thread code touches it (a lambda of Main at S0.java:15); with --single-vm that "
                            + "thread may run on another node, where the access fails",
                    "CUM201 main@14: new Task() makes a thread's task from an ArrayList, which cannot leave the node "
                            + "that made it; with --single-vm the thread may run on another node, where reaching it "
                            + "fails",
                    "CUM201 main@17: the Runnable given to new Thread() captures a HashMap, which cannot leave the "
                            + "node that made it; with --single-vm the thread may run on another node, where reaching "
                            + "it fails"),
                    fx.check(ThreadEscapeCheckerTest::checker, "Main"));
        }
    }

    @Test
    void aJdkExceptionStoredByAThreadIsAValueAndDoesNotWarn() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Outcome {
                    volatile Throwable failure;
                    IllegalStateException last;
                    void record() {
                        try { Integer.parseInt("x"); }
                        catch (NumberFormatException e) { failure = e; last = new IllegalStateException("bad", e); }
                    }
                }
                class Worker extends Thread {
                    final Outcome outcome = new Outcome();
                    public void run() { outcome.record(); }
                }
                """)) {
            assertEquals(List.of(), fx.check(ThreadEscapeCheckerTest::checker, "Outcome"));
        }
    }
}
