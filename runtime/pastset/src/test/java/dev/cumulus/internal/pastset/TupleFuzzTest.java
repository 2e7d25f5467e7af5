package dev.cumulus.internal.pastset;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cumulus.CumulusException;

/**
 * Fuzz target of the tuple decoder: any bytes decode to fields or raise {@link CumulusException}, nothing else. Run as
 * a regression test on its seeds in every test run; {@code ./build fuzz} fuzzes it.
 */
class TupleFuzzTest {
    private static final TupleCodec CODEC = new TupleCodec(TupleFuzzTest.class.getClassLoader());

    @FuzzTest(maxDuration = "2s")
    void tuple(byte[] data) {
        try {
            CODEC.decode(data, "fuzzed");
        } catch (CumulusException expected) {
            // refused
        }
    }
}
