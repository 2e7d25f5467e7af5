package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM204: non-final fields of the program's enums; final fields and other classes' fields are fine. */
@Timeout(60)
class MutableEnumCheckerTest {
    @TempDir
    Path tmp;

    private static MutableEnumChecker checker(ClassIndex index) {
        return new MutableEnumChecker(index, new SingleVmFacts(index));
    }

    @Test
    void nonFinalFieldsOfAnEnumAreReported() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                enum Level {
                    LOW, HIGH { int extra; void bump() { extra++; } };
                    private int hits;
                    static int made = 1;
                    private final String label = "x";
                    static final int MAX = 3;
                    void hit() { hits++; made++; }
                }
                enum Fixed {
                    A(1);
                    private final int weight;
                    Fixed(int weight) { this.weight = weight; }
                }
                enum Planet {
                    EARTH(5.97e24);
                    private double mass;
                    static int count;
                    Planet(double mass) { this.mass = mass; }
                    static { count = values().length; }
                }
                class Counter {
                    int hits;
                }
                """)) {
            String perNode = ", so a value written on one node is not seen by threads on the others";
            assertEquals(List.of("CUM204 hits@2: field 'hits' of enum Level is per node: with --single-vm each node "
                            + "has its own enum constants" + perNode,
                    "CUM204 made@5: static field 'made' of enum Level is per node: with --single-vm each node runs "
                            + "the enum's initializer and has its own copy" + perNode),
                    fx.check(MutableEnumCheckerTest::checker, "Level"));
            assertEquals(List.of("CUM204 extra@3: field 'extra' of enum Level.1 is per node: with --single-vm each "
                    + "node has its own enum constants" + perNode),
                    fx.check(MutableEnumCheckerTest::checker, "Level$1"));
            assertEquals(List.of(), fx.check(MutableEnumCheckerTest::checker, "Fixed"));
            assertEquals(List.of(), fx.check(MutableEnumCheckerTest::checker, "Planet"), "set only while made");
            assertEquals(List.of(), fx.check(MutableEnumCheckerTest::checker, "Counter"));
        }
    }
}
