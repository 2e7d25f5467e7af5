package dev.cumulus.profiler.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class UnitsTest {
    @Test
    void eachDurationTakesTheUnitThatSuitsItWithThreeSignificantDigits() {
        assertEquals("396 ms", Units.duration(395_890_600)); // the 395890.6 µs
        assertEquals("11.5 ms", Units.duration(11_534_300));
        assertEquals("96.3 µs", Units.duration(96_300));
        assertEquals("850 ns", Units.duration(850));
        assertEquals("0 ns", Units.duration(0));
        assertEquals("1.10 s", Units.duration(1_100_000_000));
        assertEquals("1.00 ms", Units.duration(999_999), "rounding up to 1000 µs carries into ms");
        assertEquals("96.3 us", Units.duration(96_300, false), "us where µ cannot be printed");
        assertEquals("600 ms", Units.micros(600_000));
    }

    @Test
    void anAxisTakesOneUnitFromItsLargestValue() {
        assertEquals(Units.Time.MS, Units.Time.suiting(608_174_100));
        assertEquals(608.1741, Units.Time.MS.of(608_174_100), 1e-9);
        assertEquals(Units.Time.US, Units.Time.suiting(4_849));
        assertEquals("0.5", Units.tick(0.5));
        assertEquals("120", Units.tick(120));
        assertEquals("600", Svg.label(600), "no 600k on an axis once it is in ms");
    }

    @Test
    void bytesInBinaryUnits() {
        assertEquals("512 B", Units.bytes(512));
        assertEquals("43.3 KiB", Units.bytes(44_339));
        assertEquals("1.20 MiB", Units.bytes(1.2 * 1024 * 1024));
    }
}
