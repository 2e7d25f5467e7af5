package dev.cumulus.internal.array;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cumulus.CumulusException;
import dev.cumulus.array.Distribution;
import dev.cumulus.internal.codec.BytesView;

/**
 * Fuzz target of the coherence message decoder: any bytes decode to a message or raise {@link CumulusException} (what
 * {@code ArrayService} answers a bad message with), nothing else. Run as a regression test on its seeds in every test
 * run; {@code ./build fuzz} fuzzes it.
 */
class CoherenceFuzzTest {
    private static final ArraySpec DOUBLES = new ArraySpec("A", ElementKind.DOUBLE, 8, 8, 2, 2, Distribution.BLOCK);

    @FuzzTest(maxDuration = "2s")
    void coherenceMessage(byte[] data) {
        BytesView view = new BytesView(data, 0, data.length);
        try {
            CoherenceWire.arrayName(view);
        } catch (CumulusException expected) {
            // refused
        }
        try {
            CoherenceWire.decode(view, DOUBLES, 4, 4);
        } catch (CumulusException expected) {
            // refused
        }
    }
}
