package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * CUM205: interface fields that may change; immutable values, JDK interface types ({@code List.of}), patterns,
 * optionals and classes' static fields are fine.
 */
@Timeout(60)
class InterfaceStateCheckerTest {
    @TempDir
    Path tmp;

    private static InterfaceStateChecker checker(ClassIndex index) {
        return new InterfaceStateChecker(index, new SingleVmFacts(index));
    }

    @Test
    void mutableInterfaceFieldsAreReported() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.*;
                interface Tables {
                    int[] TABLE = new int[1];
                    ArrayList<String> NAMES = new ArrayList<>();
                    Box BOX = new Box();
                    Pair WITH_ARRAY = new Pair(1, new int[0]);
                }
                interface Constants {
                    int SIZE = 4;
                    String NAME = "n";
                    Integer BOXED = 7;
                    Class<?> TYPE = String.class;
                    Thread.State STATE = Thread.State.NEW;
                    java.math.BigInteger BIG = java.math.BigInteger.TEN;
                    Point ORIGIN = new Point(0, 0, null);
                    List<String> WORDS = List.of("a", "b");
                    Comparator<String> ORDER = Comparator.naturalOrder();
                    java.util.regex.Pattern WORD = java.util.regex.Pattern.compile("[a-z]+");
                    Optional<String> NONE = Optional.empty();
                }
                class Box { int n; }
                record Pair(int a, int[] b) { }
                record Point(int x, int y, Point parent) { }
                class Holder {
                    static final int[] TABLE = new int[1];
                }
                """)) {
            String perNode = ", which is not an immutable value: with --single-vm each node runs the interface's "
                    + "initializer and has its own copy, so what one node writes to it is not seen by threads on the "
                    + "others";
            assertEquals(List.of("CUM205 TABLE@4: static field 'TABLE' of interface Tables is of type int[]" + perNode,
                    "CUM205 NAMES@5: static field 'NAMES' of interface Tables is of type ArrayList" + perNode,
                    "CUM205 BOX@6: static field 'BOX' of interface Tables is of type Box" + perNode,
                    "CUM205 WITH_ARRAY@7: static field 'WITH_ARRAY' of interface Tables is of type Pair" + perNode),
                    fx.check(InterfaceStateCheckerTest::checker, "Tables"));
            assertEquals(List.of(), fx.check(InterfaceStateCheckerTest::checker, "Constants"));
            assertEquals(List.of(), fx.check(InterfaceStateCheckerTest::checker, "Holder"));
        }
    }
}
