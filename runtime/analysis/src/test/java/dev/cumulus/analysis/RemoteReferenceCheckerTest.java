package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM103 beyond the corpus: interfaces the program exports or creates remotely are remote types; statics count. */
@Timeout(60)
class RemoteReferenceCheckerTest {
    @TempDir
    Path tmp;

    @Test
    void exportedAndRemotelyCreatedInterfacesAreRemoteTypes() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import dev.cumulus.Cluster;
                interface Printer { void print(String s); }
                interface Store { int size(); }
                interface Local { int size(); }
                class PrinterImpl implements Printer { public void print(String s) { } }
                class StoreImpl implements Store { public int size() { return 0; } }
                class Wiring {
                    static void wire(Cluster cluster) {
                        cluster.export(new PrinterImpl(), Printer.class, "printer");
                        cluster.remoteNew(StoreImpl.class, Store.class, "store", 1);
                    }
                }
                class Desk implements dev.cumulus.Cloud.Root {
                    static Printer shared;
                    Local local;
                    public Store store() { return null; }
                    public int count(Local l) { return l.size(); }
                }
                """)) {
            // fields without an initializer are reported at the class line
            assertEquals(List.of("CUM103 shared@14: field 'shared' refers to remote object type 'Printer'",
                            "CUM103 store@17: method 'store' returns remote object type 'Store'"),
                    fx.check(RemoteReferenceChecker::new, "Desk"));
        }
    }
}
