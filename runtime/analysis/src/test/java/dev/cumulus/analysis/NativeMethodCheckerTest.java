package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM202: native methods of program classes; calls of the JDK's native methods are fine. */
@Timeout(60)
class NativeMethodCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void aNativeMethodOfTheProgramIsReportedAndACallOfAJdkOneIsNot() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Fast {
                    int scale = 2;
                    native long hash(byte[] data);
                    long now() { return System.nanoTime() * scale; }
                }
                class Plain {
                    long now() { return System.nanoTime(); }
                }
                """)) {
            // a native method has no code, so no line: the finding is at the class line (the editor puts it on the name)
            assertEquals(List.of("CUM202 hash@2: method 'hash' is native: with --single-vm the class is refused when "
                            + "it loads, as native code cannot run on the shared heap"),
                    fx.check(new NativeMethodChecker(new SingleVmFacts(fx.index)), "Fast"));
            assertEquals(List.of(), fx.check(new NativeMethodChecker(new SingleVmFacts(fx.index)), "Plain"));
        }
    }
}
