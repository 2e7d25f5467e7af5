package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM105 beyond the corpus: which roots a node belongs to (type arguments, subclasses, two roots), self-reference. */
@Timeout(60)
class CloudReferenceCheckerTest {
    @TempDir
    Path tmp;

    private static final String CLOUDS = """
            import dev.cumulus.Cloud;
            import java.util.List;
            class Forest implements Cloud.Root {
                List<Branch> branches;
                Forest other;
            }
            class Orchard implements Cloud.Root {
                Branch graft;
            }
            class Branch implements Cloud.Node {
                Forest forest;
                Orchard orchard;
            }
            class Leaf extends Branch {
                Forest home;
            }
            class Stray implements Cloud.Node {
                Forest forest;
                List<Orchard> orchards;
            }
            """;

    @Test
    void nodesReachedThroughTypeArgumentsOrAsSubclassesMayReferToTheirRoots() {
        // fields without an initializer are reported at the class line
        try (CheckerFixture fx = new CheckerFixture(tmp, CLOUDS)) {
            CloudReferenceChecker checker = new CloudReferenceChecker(fx.index);
            assertEquals(List.of(), fx.check(checker, "Branch"));
            assertEquals(List.of(), fx.check(checker, "Leaf"));
            assertEquals(List.of("CUM105 forest@18: node 'Stray' refers through field 'forest' to root 'Forest', which "
                            + "is not the root of its own cloud",
                    "CUM105 orchards@18: node 'Stray' refers through field 'orchards' to root 'Orchard', which is "
                            + "not the root of its own cloud"),
                    fx.check(checker, "Stray"));
        }
    }

    @Test
    void aRootMayNotHoldAnyRootTypeNotEvenItsOwn() {
        try (CheckerFixture fx = new CheckerFixture(tmp, CLOUDS)) {
            assertEquals(List.of("CUM105 other@4: root 'Forest' refers to the root of another cloud, 'Forest', "
                    + "through field 'other'"), fx.check(CloudReferenceChecker::new, "Forest"));
        }
    }
}
