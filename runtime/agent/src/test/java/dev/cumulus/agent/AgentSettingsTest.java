package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's options, as {@code -javaagent:cumulus-agent.jar=OPTIONS} hands them to premain and agentmain. */
@Timeout(10)
class AgentSettingsTest {
    @Test
    void noOptionsMeanNoDiagnostics() {
        assertSame(AgentSettings.NONE, AgentSettings.parse(null));
        assertSame(AgentSettings.NONE, AgentSettings.parse(""));
        assertEquals(new AgentSettings(false, false, null), AgentSettings.NONE);
    }

    @Test
    void eachOptionSetsItsSetting() {
        assertEquals(new AgentSettings(true, false, null), AgentSettings.parse("verbose"));
        assertEquals(new AgentSettings(false, true, null), AgentSettings.parse("debug"));
        assertEquals(new AgentSettings(false, false, Path.of("/tmp/woven")), AgentSettings.parse("dumpDir=/tmp/woven"));
        assertEquals(new AgentSettings(true, true, Path.of("out/a=b")),
                AgentSettings.parse("dumpDir=out/a=b,debug,verbose"));
    }

    @Test
    void anUnknownOptionIsNamedWithTheValidOnes() {
        String m = message("verbose,verbos");
        assertEquals("bad Cumulus agent options 'verbose,verbos': 'verbos' is not an option; "
                + "the options are verbose, debug, dumpDir=DIR, separated by commas", m);
    }

    @Test
    void badValuesAndRepeatsSayWhatIsWrong() {
        assertTrue(message("verbose=true").contains("'verbose' takes no value"), message("verbose=true"));
        assertTrue(message("debug=").contains("'debug' takes no value"), message("debug="));
        assertTrue(message("dumpDir").contains("'dumpDir' needs a directory: dumpDir=DIR"), message("dumpDir"));
        assertTrue(message("dumpDir= ").contains("'dumpDir' needs a directory"), message("dumpDir= "));
        assertTrue(message("dumpDir=a\0b").contains("'dumpDir=a\0b' is not a path"), message("dumpDir=a\0b"));
        assertTrue(message("debug,debug").contains("'debug' is given twice"), message("debug,debug"));
        assertTrue(message("verbose,,debug").contains("an option is empty"), message("verbose,,debug"));
        assertTrue(message("verbose,").contains("an option is empty"), message("verbose,"));
        assertTrue(message("Verbose").contains("'Verbose' is not an option"), message("Verbose"));
    }

    private static String message(String options) {
        return assertThrows(IllegalArgumentException.class, () -> AgentSettings.parse(options)).getMessage();
    }
}
