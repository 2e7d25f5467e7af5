package dev.cumulus.profiler.figures;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ReportFiguresRateTest {
    @Test
    void fewOperationsGetACountAndNoRate() {
        assertNull(ReportFigures.rate(8, 2.0), "8 calls are not 4 calls/s");
        assertNull(ReportFigures.rate(ReportFigures.MIN_OPERATIONS - 1, 10.0));
        assertEquals(ReportFigures.MIN_OPERATIONS / 2.0, ReportFigures.rate(ReportFigures.MIN_OPERATIONS, 2.0));
    }

    @Test
    void aShortRunGetsNoRate() {
        assertNull(ReportFigures.rate(1_000, null));
    }
}
