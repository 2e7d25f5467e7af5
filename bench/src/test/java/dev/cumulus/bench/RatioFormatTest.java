package dev.cumulus.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A printed ratio keeps its significant digits however small it is: a slow baseline must not make it "0.00". */
class RatioFormatTest {
    @Test
    void aRatioPrintsToThreeSignificantDigits() {
        assertEquals("0.00412", RpcBench.ratio(3.15 / 765));
        assertEquals("0.0000123", RpcBench.ratio(0.0000123));
        assertEquals("1.23", RpcBench.ratio(1.234));
        assertEquals("12.3", RpcBench.ratio(12.34));
        assertEquals("1235", RpcBench.ratio(1234.6));
        assertEquals("0", RpcBench.ratio(0));
        assertEquals("-", RpcBench.ratio(Double.NaN));
        assertEquals("-", RpcBench.ratio(1.0 / 0));
    }
}
