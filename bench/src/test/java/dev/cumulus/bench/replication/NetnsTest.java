package dev.cumulus.bench.replication;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * System test of Table 4's emulated wide area: two clusters with a 5 ms one-way delay (netem, or the TUN delay
 * router where the kernel has no netem), UDP round trips between them through real namespaces and the kernel's
 * stack; every round trip takes at least twice the delay, and closing leaves no namespace and no process. Skipped,
 * with the reason, where the namespaces cannot be made (not root, no ip, no delay mechanism).
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
        } finally {
            ns.close();
        }
        System.out.println("NetnsTest: " + ns.delay() + ", UDP round trips µs " + rtt + ", router " + ns.routerStats());
        assertEquals("0", rtt.get("lost"), ns.delay() + ": " + rtt);
        assertEquals("10", rtt.get("count"), ns.delay() + ": " + rtt);
        assertTrue(Long.parseLong(rtt.get("min")) >= 2_000L * DELAY_MS, ns.delay() + ": the fastest round trip, "
            + rtt.get("min") + " µs, is below twice the one-way delay of " + DELAY_MS + " ms: " + rtt);
        if (ns.delay() == Netns.Delay.TUN_ROUTER) {
            assertTrue(ns.routerStats().contains("dropped=0"), "router: " + ns.routerStats());
        }
        assertEquals(List.of(), ns.remaining(), "namespaces left behind");
        assertEquals(List.of(), ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .map(ProcessHandle::info).map(Object::toString).toList(), "processes left behind");
    }
}
