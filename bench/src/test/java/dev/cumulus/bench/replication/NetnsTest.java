package dev.cumulus.bench.replication;

import dev.cumulus.bench.ProcessSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * System test of Table 4's emulated wide area: two clusters with a 5 ms one-way delay (netem, or the TUN delay
 * router where the kernel has no netem), UDP round trips between them through real namespaces and the kernel's
 * stack; every round trip takes at least twice the delay (and its median under three times), and closing leaves no
 * namespace and no process. Also: a killed run's leftovers are swept, a dead router is noticed, and a command that
 * hangs is killed at its timeout. Skipped, with the reason, where the namespaces cannot be made (not root, no ip, no
 * delay mechanism).
 */
class NetnsTest {
    private static final int DELAY_MS = 5;

    @Test
    @Timeout(180)
    void roundTripBetweenTwoClustersIsTwiceTheDelayAndNothingIsLeft() {
        String why = Netns.cannotRun();
        assumeTrue(why == null, () -> "emulated wide area cannot run here: " + why);
        Netns ns = Netns.create(2, DELAY_MS);
        Map<String, String> rtt;
        try {
            rtt = ns.udpRoundTrip(0, 1, 10);
            assertNull(ns.routerDied());
            // one not made by create (as if made after a list was taken): close deletes it by its prefix
            assertNull(Netns.exec(List.of(Netns.find("ip"), "netns", "add", ns.name(9)), Duration.ofSeconds(20))
                .error());
        } finally {
            ns.close();
        }
        System.out.println("NetnsTest: " + ns.delay() + ", UDP round trips µs " + rtt + ", router " + ns.routerStats());
        assertEquals("0", rtt.get("lost"), ns.delay() + ": " + rtt);
        assertEquals("10", rtt.get("count"), ns.delay() + ": " + rtt);
        assertTrue(Long.parseLong(rtt.get("min")) >= 2_000L * DELAY_MS, ns.delay() + ": the fastest round trip, "
            + rtt.get("min") + " µs, is below twice the one-way delay of " + DELAY_MS + " ms: " + rtt);
        assertTrue(Long.parseLong(rtt.get("p50")) < 3_000L * DELAY_MS, ns.delay() + ": the median round trip, "
            + rtt.get("p50") + " µs, is not below three times the one-way delay of " + DELAY_MS + " ms: " + rtt);
        if (ns.delay() == Netns.Delay.TUN_ROUTER) {
            for (String zero : List.of("dropped=0", "oversize=0", "refused=0")) {
                assertTrue(ns.routerStats().contains(zero), "router, " + zero + ": " + ns.routerStats());
            }
        }
        assertThrows(IllegalStateException.class, () -> ns.netns(ns.name(8)), "closed, yet it made a namespace");
        assertEquals(List.of(), ns.remaining(), "namespaces left behind");
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "processes left behind");
    }

    @Test
    @Timeout(180)
    void aDeadRouterIsReportedWithItsExitAndNothingIsLeft() throws InterruptedException {
        String why = Netns.cannotRun();
        assumeTrue(why == null, () -> "emulated wide area cannot run here: " + why);
        assumeTrue(Netns.mechanism() == Netns.Delay.TUN_ROUTER, "netem here: no router");
        try (Netns ns = Netns.create(2, DELAY_MS)) {
            assertNull(ns.routerDied());
            Process router = ns.routerProcess();
            router.destroyForcibly();
            router.waitFor();
            String died = ns.routerDied();
            assertNotNull(died);
            assertTrue(died.startsWith("the delay router exited with code "), died);
            ns.close();
            assertEquals(List.of(), ns.remaining(), "namespaces left behind");
        }
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "processes left behind");
    }

    /**
     * What a killed run left (a namespace and a driver directory named after a pid that is not running, and one
     * named after this pid while it has none open) is swept; a live process's are kept.
     */
    @Test
    @Timeout(60)
    void aDeadProcessesNamespacesAndDriverDirectoriesAreSwept() throws IOException {
        String why = Netns.cannotRun();
        assumeTrue(why == null, () -> "emulated wide area cannot run here: " + why);
        long dead = 4_194_304; // Linux's PID_MAX_LIMIT: every pid is below it, so none runs
        assertTrue(ProcessHandle.of(dead).isEmpty());
        long live = ProcessHandle.current().parent().orElseThrow().pid();
        long own = ProcessHandle.current().pid();
        List<String> stale = List.of("cbr" + dead + "-hub", "cbr" + own + "-1");
        String kept = "cbr" + live + "-sweeptest";
        Path staleDir = ProcessSet.driverRoot().resolve("cumulus-bench-wan-" + dead + "-abc-node0");
        Path keptDir = ProcessSet.driverRoot().resolve("cumulus-bench-wan-" + live + "-abc-node0");
        try {
            for (String n : List.of(stale.get(0), stale.get(1), kept)) {
                assertNull(Netns.exec(List.of(Netns.find("ip"), "netns", "add", n), Duration.ofSeconds(20)).error());
            }
            Files.createDirectories(staleDir);
            Files.writeString(staleDir.resolve("cnc.dat"), "x");
            Files.createDirectories(keptDir);

            List<String> deleted = Netns.sweep();

            assertTrue(deleted.containsAll(stale) && deleted.contains(staleDir.toString()), "deleted " + deleted);
            List<String> left = Netns.exec(List.of(Netns.find("ip"), "netns", "list"), Duration.ofSeconds(20))
                .output().lines().map(l -> l.split("\\s+")[0]).toList();
            assertFalse(left.contains(stale.get(0)) || left.contains(stale.get(1)), "left: " + left);
            assertTrue(left.contains(kept), "a live process's namespace was deleted: " + left);
            assertFalse(Files.exists(staleDir));
            assertTrue(Files.exists(keptDir), "a live process's driver directory was deleted");
        } finally {
            for (String n : List.of(stale.get(0), stale.get(1), kept)) {
                Netns.exec(List.of(Netns.find("ip"), "netns", "del", n), Duration.ofSeconds(20));
            }
            Files.deleteIfExists(staleDir.resolve("cnc.dat"));
            Files.deleteIfExists(staleDir);
            Files.deleteIfExists(keptDir);
        }
    }

    @Test
    @Timeout(60)
    void aCommandIsKilledAtItsTimeoutAndItsOutputIsKept() {
        String sleep = Netns.find("sleep");
        assumeTrue(sleep != null && Netns.find("sh") != null, "no sleep or sh");
        long t0 = System.nanoTime();
        Netns.Outcome o = Netns.exec(List.of(sleep, "120"), Duration.ofMillis(300));
        assertTrue(o.error().startsWith("timed out"), o.error());
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(30).toNanos(), "did not return at its timeout");
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "the command still runs");

        Netns.Outcome failed = Netns.exec(List.of(Netns.find("sh"), "-c", "echo out; echo err >&2; exit 3"),
            Duration.ofSeconds(20));
        assertEquals("exit 3: out\nerr", failed.error());
        assertNull(Netns.exec(List.of(Netns.find("sh"), "-c", "exit 0"), Duration.ofSeconds(20)).error());
    }
}
