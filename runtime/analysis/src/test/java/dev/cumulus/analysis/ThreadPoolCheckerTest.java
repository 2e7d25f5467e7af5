package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM203: JDK thread pools made by program code; other Executors helpers and plain threads are fine. */
@Timeout(60)
class ThreadPoolCheckerTest {
    @TempDir
    Path tmp;

    private static ThreadPoolChecker checker(ClassIndex index) {
        return new ThreadPoolChecker(index, new SingleVmFacts(index));
    }

    @Test
    void poolsAreReportedOncePerLine() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.concurrent.*;
                class Pools {
                    void run() throws Exception {
                        ExecutorService a = Executors.newFixedThreadPool(4);
                        ForkJoinPool b = new ForkJoinPool(2);
                        ForkJoinPool.commonPool().submit(() -> { }).get(); a.shutdown();
                    }
                }
                class NoPools {
                    void run() throws Exception {
                        Callable<Object> c = Executors.callable(() -> { });
                        Thread t = new Thread(() -> { });
                        t.start();
                        t.join();
                        c.call();
                    }
                }
                """)) {
            assertEquals(List.of(
                    "CUM203 run@5: method 'run' makes a JDK thread pool (Executors.newFixedThreadPool()): its "
                            + "threads all run on the node that made it, never on the others",
                    "CUM203 run@6: method 'run' makes a JDK thread pool (new ForkJoinPool()): its threads all run "
                            + "on the node that made it, never on the others",
                    "CUM203 run@7: method 'run' makes a JDK thread pool (ForkJoinPool.commonPool()): its threads "
                            + "all run on the node that made it, never on the others"),
                    fx.check(ThreadPoolCheckerTest::checker, "Pools"));
            assertEquals(List.of(), fx.check(ThreadPoolCheckerTest::checker, "NoPools"));
        }
    }
}
