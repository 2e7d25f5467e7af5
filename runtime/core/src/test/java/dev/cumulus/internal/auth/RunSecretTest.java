package dev.cumulus.internal.auth;

import dev.cumulus.CumulusException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunSecretTest {
    @Test
    void theLineCarriesTheSecretAndNothingElseShowsIt() {
        RunSecret s = RunSecret.generate();
        assertEquals(s, RunSecret.parseLine(s.line()));
        assertNotEquals(s, RunSecret.generate());
        String encoded = s.line().substring(RunSecret.LINE_PREFIX.length());
        assertFalse(s.toString().contains(encoded));
        assertEquals("RunSecret[hidden]", s.toString());
    }

    @Test
    void keysDifferByPurposeAndAreTheSameForTheSameSecret() {
        RunSecret s = RunSecret.generate();
        byte[] live = s.keyBytes(RunSecret.LIVE_PROFILE_PURPOSE);
        assertEquals(32, live.length);
        assertTrue(Arrays.equals(live, RunSecret.parseLine(s.line()).keyBytes(RunSecret.LIVE_PROFILE_PURPOSE)));
        assertFalse(Arrays.equals(live, s.keyBytes("another purpose")));
    }

    @Test
    void aLineThatIsNotASecretIsRefusedWithoutRepeatingIt() {
        CumulusException e = assertThrows(CumulusException.class, () -> RunSecret.parseLine("GO"));
        assertTrue(e.getMessage().contains("not the run's secret"), e.getMessage());
        assertFalse(e.getMessage().contains("GO"), e.getMessage());
        assertThrows(CumulusException.class, () -> RunSecret.parseLine(RunSecret.LINE_PREFIX + "c2hvcnQ="));
        assertThrows(CumulusException.class, () -> RunSecret.parseLine(RunSecret.LINE_PREFIX + "!!"));
        assertThrows(CumulusException.class, () -> RunSecret.parseLine(null));
    }
}
