package dev.cumulus.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class HostWakeupTest {
    @Test
    void everyWakeUpIsMeasuredAndThePercentilesAreOrdered() {
        HostWakeup.Latency l = HostWakeup.measure(50);
        assertEquals(50, l.samples());
        assertTrue(l.p50Us() > 0, "an unpark takes some time: " + l);
        assertTrue(l.p99Us() >= l.p50Us(), l.toString());
    }

    @Test
    void theLineSaysWhetherIdleCoresPollBeforeTheyHalt(@TempDir Path dir) throws Exception {
        HostWakeup.Latency l = new HostWakeup.Latency(29.2, 69.7, 2000);
        Path driver = dir.resolve("current_driver");
        Path haltPoll = dir.resolve("guest_halt_poll_ns");
        assertFalse(HostWakeup.describe(l, driver, haltPoll).contains("halt"), "nothing said where Linux tells nothing");
        Files.writeString(haltPoll, "0\n");
        Files.writeString(driver, "intel_idle\n");
        assertFalse(HostWakeup.describe(l, driver, haltPoll).contains("halt"), "the haltpoll module is not in use");

        Files.writeString(driver, "haltpoll\n");
        String off = HostWakeup.describe(l, driver, haltPoll);
        assertTrue(off.contains("p50 29.2 µs, p99 69.7 µs") && off.contains("2,000 wake-ups"), off);
        assertTrue(off.contains("idle cores halt at once (haltpoll guest_halt_poll_ns=0)"), off);

        Files.writeString(haltPoll, "200000\n");
        assertTrue(HostWakeup.describe(l, driver, haltPoll).contains("idle cores poll up to 200 µs before they halt"));
    }

    @Test
    void aMeasurementNeedsAWakeUp() {
        assertThrows(IllegalArgumentException.class, () -> HostWakeup.measure(0));
    }
}
