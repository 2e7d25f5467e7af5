package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM107 beyond the corpus: helper chains (their text, the related location, the depth limit) and recursion. */
@Timeout(60)
class WellBehavedCallCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void helperChainsAreFollowedToTheCallAndRecursionEnds() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Outer {
                    static long stamp() { return Inner.now(); }
                }
                class Inner {
                    static long now() {
                        return System.nanoTime();
                    }
                }
                class Loop {
                    static int spin(int n) { return n == 0 ? 0 : spin(n - 1) + twin(n); }
                    static int twin(int n) { return spin(n - 1); }
                }
                class Timed implements dev.cumulus.Cloud.Root {
                    private long t;
                    public void mark() { t = Outer.stamp(); }
                    public int loop() { return Loop.spin(3); }
                }
                """)) {
            assertEquals(List.of("CUM107 mark@16: method 'mark' calls Outer.stamp(), which reads the clock "
                            + "(Outer.stamp() -> Inner.now() -> System.nanoTime() at S0.java:7) "
                            + "[System.nanoTime() reads the clock @S0.java:7]"),
                    fx.check(WellBehavedCallChecker::new, "Timed"));
        }
    }

    @Test
    void helpersAreFollowedTwelveCallsDeep() {
        try (CheckerFixture fx = new CheckerFixture(tmp, chain("Near", 12), chain("Far", 13), """
                class Twelve implements dev.cumulus.Cloud.Root {
                    public long within() { return Near.h1(); }
                    public long beyond() { return Far.h1(); }
                }
                """)) {
            List<String> found = fx.check(WellBehavedCallChecker::new, "Twelve");
            assertEquals(1, found.size(), String.join("\n", found));
            assertTrue(found.getFirst().startsWith("CUM107 within@3: method 'within' calls Near.h1(), which reads the "
                    + "clock (Near.h1() -> Near.h2() ->"), found.getFirst());
        }
    }

    /** Class {@code name} with helpers h1 .. h{length}, each calling the next; the last reads the clock. */
    private static String chain(String name, int length) {
        StringBuilder src = new StringBuilder("class " + name + " {\n");
        for (int i = 1; i <= length; i++) {
            src.append("    static long h").append(i).append("() { return ")
                    .append(i == length ? "System.nanoTime()" : "h" + (i + 1) + "()").append("; }\n");
        }
        return src.append("}\n").toString();
    }

    @Test
    void nonCloudClassesMayCallAnything() {
        try (CheckerFixture fx = new CheckerFixture(tmp, "class Plain { long t() { return System.nanoTime(); } }")) {
            assertEquals(List.of(), fx.check(WellBehavedCallChecker::new, "Plain"));
        }
    }
}
