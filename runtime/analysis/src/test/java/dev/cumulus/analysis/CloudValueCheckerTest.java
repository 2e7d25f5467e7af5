package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM109 beyond the corpus: type arguments, recursive records, type variables, statics and nodes. */
@Timeout(60)
class CloudValueCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void everyTypeArgumentIsCheckedAndRecursiveRecordsAndTypeVariablesPass() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.util.List;
                import java.util.Map;
                record Chain(int value, Chain next) { }
                class Shelf<T> implements dev.cumulus.Cloud.Node {
                    T item;
                    Chain chain;
                    Map<String, List<StringBuilder>> drafts;
                    static Object shared;
                }
                """)) {
            // fields without an initializer are reported at the class line
            assertEquals(List.of("CUM109 drafts@5: field 'drafts' holds type 'StringBuilder', which is neither a cloud "
                    + "object, an array, an immutable value nor a known collection"),
                    fx.check(CloudValueChecker::new, "Shelf"));
        }
    }
}
