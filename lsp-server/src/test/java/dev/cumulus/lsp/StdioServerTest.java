package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The server as a child process over stdio (its real main), on one corpus file; reports the start time. */
@Timeout(120)
class StdioServerTest {
    @Test
    void childProcessOverStdioChecksACorpusFileAndExitsCleanly() throws Exception {
        long t0 = System.nanoTime();
        try (Harness h = Harness.childProcess()) {
            h.initialize(Harness.CORPUS, Harness.options(true, 0));
            long initializedMs = (System.nanoTime() - t0) / 1_000_000;
            var file = Harness.CORPUS.resolve("CUM107/Impure.java");
            CorpusThroughServerTest.check(h, file);
            long firstDiagnosticsMs = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("server start (child JVM): initialize answered after %d ms, first diagnostics of a "
                    + "corpus file (whole corpus compiled and analysed) after %d ms%n", initializedMs,
                    firstDiagnosticsMs);
            assertEquals(0, h.shutdown(), "exit code after shutdown + exit");
        }
    }

    @Test
    void everyCommandIsRegistered() {
        assertEquals(List.of("cumulus.run", "cumulus.stop", "cumulus.newProject", "cumulus.showProfile"),
                CumulusProtocol.COMMANDS);
    }
}
