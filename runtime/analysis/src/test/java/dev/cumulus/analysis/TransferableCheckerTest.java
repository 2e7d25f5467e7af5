package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM108 beyond the corpus: records are checked through their components, and which methods are checked. */
@Timeout(60)
class TransferableCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void recordsAreTransferableWhenTheirComponentsAreAndOnlyPublicInstanceRootMethodsCount() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.List;
                import java.util.Map;
                record Note(String text, StringBuilder draft) { }
                record Tree(int value, List<Tree> children) { }
                class Box implements dev.cumulus.Cloud.Root {
                    private int n;
                    public void note(Note note) { n++; }
                    public Tree tree(Tree t) { return t; }
                    public Map<String, Object> index() { return Map.of(); }
                    public <T> T any(T t) { return t; }
                    void local(Object o) { n++; }
                    public static void util(Object o) { }
                    @Override public String toString() { return "box"; }
                }
                class Part implements dev.cumulus.Cloud.Node {
                    public void take(Object o) { }
                }
                """)) {
            assertEquals(List.of(
                    "CUM108 note@8: public root method 'note' takes a parameter of type 'Note', which is not "
                            + "transferable",
                    "CUM108 index@10: public root method 'index' returns type 'Object', which is not transferable"),
                    fx.check(TransferableChecker::new, "Box"));
            assertEquals(List.of(), fx.check(TransferableChecker::new, "Part"));
        }
    }
}
