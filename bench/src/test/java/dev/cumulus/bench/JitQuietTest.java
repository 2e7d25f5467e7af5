package dev.cumulus.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a warm-up may end: only after the compilers' clock stood still for the quiet window. */
class JitQuietTest {
    @Test
    void quietOnlyOnceTheClockStoodStillForTheWindow() {
        JitQuiet jit = new JitQuiet(() -> 42);
        long start = System.nanoTime();
        assertFalse(jit.quiet(), "the first look only starts the window");
        long deadline = start + TimeUnit.SECONDS.toNanos(30);
        while (!jit.quiet()) {
            assertTrue(System.nanoTime() - deadline < 0, "a clock that stands still must end the wait");
            Thread.onSpinWait();
        }
        assertTrue(System.nanoTime() - start >= JitQuiet.QUIET_NS, "quiet before the window passed");
    }

    @Test
    void aMovingClockIsNeverQuiet() {
        AtomicLong ticks = new AtomicLong();
        JitQuiet jit = new JitQuiet(ticks::incrementAndGet);
        long end = System.nanoTime() + 2 * JitQuiet.QUIET_NS;
        while (System.nanoTime() - end < 0) {
            assertFalse(jit.quiet());
        }
    }

    @Test
    void cpuTicksAreUtimePlusStimeEvenWithSpacesInTheThreadName() {
        String stat = "4242 (C2 CompilerThre) S 4200 4200 0 0 -1 4194368 100 0 0 0 137 12 0 0 20 0 30 0 500 0 0";
        assertEquals(149, JitQuiet.cpuTicks(stat));
    }

    @Test
    void theMeasurementsCompilersAreFoundInProc() {
        // this test JVM compiled its own code by now: its C1 and C2 threads have run
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        long sink = 0;
        while (JitQuiet.compilerTicks(ProcessHandle.current().pid()) == 0) {
            assertTrue(System.nanoTime() - deadline < 0, "no compiler thread time found in /proc");
            for (int i = 0; i < 100_000; i++) {
                sink += Long.toString(i).hashCode(); // work for the compilers
            }
        }
        long own = JitQuiet.compilerTicks(ProcessHandle.current().pid()); // read first: it only grows
        assertTrue(JitQuiet.measurementCompilerTicks() >= own, "the measurement includes this JVM " + sink);
    }
}
