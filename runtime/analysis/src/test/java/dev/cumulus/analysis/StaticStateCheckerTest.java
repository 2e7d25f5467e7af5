package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM104 beyond the corpus: which user types count as mutable, and writes to other classes' statics. */
@Timeout(60)
class StaticStateCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void staticFinalsOfMutableUserAndCloudTypesAndWritesToOtherStatics() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                class Counter { int n; }
                class Frozen { final int n = 1; }
                class FrozenChild extends Counter { final int m = 2; }
                class Part implements dev.cumulus.Cloud.Node { }
                interface Shape { }
                class Registry {
                    static int hits;
                    static final Frozen DEFAULT = new Frozen();
                }
                class Holder implements dev.cumulus.Cloud.Root {
                    static final Counter COUNTER = new Counter();
                    static final Frozen FROZEN = new Frozen();
                    static final FrozenChild CHILD = new FrozenChild();
                    static final Part PART = new Part();
                    static final Shape SHAPE = null;
                    private int value;
                    public void hit() { Registry.hits = value; }
                    public Frozen fallback() { return Registry.DEFAULT; }
                }
                """)) {
            // lines are the file's (the package line is 1); a static without initializer is reported at its class line
            assertEquals(List.of(
                    "CUM104 COUNTER@12: static final field 'COUNTER' holds a mutable Counter shared by all replicas",
                    "CUM104 CHILD@14: static final field 'CHILD' holds a mutable FrozenChild shared by all replicas",
                    "CUM104 PART@15: static final field 'PART' holds a mutable Part shared by all replicas",
                    "CUM104 hit@18: method 'hit' writes mutable static field 'Registry.hits' [the static field @S0.java:7]"),
                    fx.check(StaticStateChecker::new, "Holder"));
        }
    }

    @Test
    void nonCloudClassesAreNotChecked() {
        try (CheckerFixture fx = new CheckerFixture(tmp, "class Plain { static int n; int get() { return n; } }")) {
            assertEquals(List.of(), fx.check(StaticStateChecker::new, "Plain"));
        }
    }
}
