package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM106 beyond the corpus: node fields, fields inherited from a cloud superclass, and cloud code itself. */
@Timeout(60)
class OutsideAccessCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void nodeAndInheritedCloudFieldsCountOnlyFromOutsideTheCloud() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import dev.cumulus.Cloud;
                class Base implements Cloud.Root {
                    int total = 0;
                }
                class Derived extends Base {
                    Cell cell = new Cell();
                    int sum() { return total + cell.value; }
                }
                class Cell implements Cloud.Node {
                    int value = 0;
                }
                class Plain {
                    int own;
                }
                class Peek {
                    static int peek(Derived d, Plain p) {
                        return d.total + d.cell.value + p.own;
                    }
                }
                """)) {
            assertEquals(List.of(
                    "CUM106 peek@18: method 'peek' reads field 'Base.total' of a cloud object from outside the cloud "
                            + "[the cloud field @S0.java:4]",
                    "CUM106 peek@18: method 'peek' reads field 'Derived.cell' of a cloud object from outside the cloud "
                            + "[the cloud field @S0.java:7]",
                    "CUM106 peek@18: method 'peek' reads field 'Cell.value' of a cloud object from outside the cloud "
                            + "[the cloud field @S0.java:11]"),
                    fx.check(OutsideAccessChecker::new, "Peek"));
            assertEquals(List.of(), fx.check(OutsideAccessChecker::new, "Derived"));
        }
    }
}
