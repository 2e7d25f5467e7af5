package dev.cumulus.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileRecord;
import dev.cumulus.profiler.channel.ProfileReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.ExecuteCommandParams;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a single-VM run (a workspace with {@code singleVm}: the run gets {@code --single-vm}), each field the report
 * names gets its remote fetches and write-backs as a code lens on its declaration, over JSON-RPC: a field inherited by
 * a subclass's objects shows on the superclass's declaration, one part per class; an array's elements and fields that
 * did not move get none.
 */
@Timeout(120)
class HeapLensesTest {
    @TempDir
    Path dir;

    @Test
    void aSingleVmRunsReportPutsFetchesAndWriteBacksOnTheFieldDeclarations() throws Exception {
        Path pool = write("demo/Pool.java", """
                package demo;

                public class Pool {
                    int size;
                    boolean working;

                    public static void main(String[] args) throws Exception {
                        Thread t = new Thread(() -> { });
                        t.start();
                        t.join();
                    }
                }
                """);
        write("demo/BigPool.java", """
                package demo;

                class BigPool extends Pool {
                    long extra;
                }
                """);
        ProfileReport report = new ProfileReport(ProfileReport.TYPE, ProfileRecord.VERSION, "/tmp/r-svm", 0, 0,
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), null, List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of(), new ProfileReport.SingleVm(List.of(
                        field("[J", "[]", 40, 0), field("demo.BigPool", "extra", 1, 2),
                        field("demo.BigPool", "size", 3, 1), field("demo.Pool", "size", 1204, 37)),
                        List.of(), List.of()));
        // the launcher's last line is the report; a run without --single-vm fails, as a real one of this program would
        Path fake = write("bin/cumulus", """
                #!/bin/sh
                [ "$1" = run ] || exit 1
                case " $* " in *" --single-vm "*) ;; *) echo "not a single-VM run: $*" >&2; exit 2;; esac
                echo '@cumulus-profile %s'
                """.formatted(ProfileGson.write(report)));
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Harness h = Harness.inProcess()) {
            var o = Harness.options(false, 0);
            o.addProperty("cumulusCommand", fake.toString());
            o.addProperty("singleVm", true);
            h.initialize(dir, o);
            String uri = h.open(pool);
            h.client.awaitDiagnostics(uri, 1);
            assertEquals(List.of(), lenses(h, uri), "no field lenses before a run");
            assertEquals(Boolean.TRUE, h.server.getWorkspaceService().executeCommand(new ExecuteCommandParams(
                    CumulusProtocol.RUN, List.of(2, "demo.Pool"))).get(30, TimeUnit.SECONDS));
            var statuses = h.client.await(() -> h.client.read(() -> List.copyOf(h.client.statuses)),
                    s -> s.stream().anyMatch(x -> x.exitCode() != null), 30_000);
            assertEquals(0, statuses.getLast().exitCode(), "the run got --single-vm: " + statuses);
            h.client.await(() -> h.client.read(() -> h.client.lensRefreshes), n -> n > 0, 10_000);

            List<CodeLens> after = lenses(h, uri);
            assertEquals(1, after.size(), "one lens, on size: " + titles(after));
            CodeLens size = after.getFirst();
            assertEquals(3, size.getRange().getStart().getLine(), "on the declaration of size");
            assertEquals(8, size.getRange().getStart().getCharacter());
            assertEquals("BigPool: 3 remote fetches · 1 write-back · nodes 1 ↔ home 0 | Pool: 1,204 remote fetches "
                    + "· 37 write-backs · nodes 1 ↔ home 0", size.getCommand().getTitle());
            assertEquals(CodeLensHandler.SHOW_COMMUNICATION_PROFILE, size.getCommand().getCommand());

            String big = h.open(dir.resolve("demo/BigPool.java"));
            h.client.awaitDiagnostics(big, 1);
            assertEquals(List.of("1 remote fetch · 2 write-backs · nodes 1 ↔ home 0"), titles(lenses(h, big)));
        }
    }

    private static ProfileReport.HeapField field(String className, String field, long fetches, long writeBacks) {
        return new ProfileReport.HeapField(className, field, fetches, 0.5, fetches, writeBacks, 0.25, List.of(1),
                List.of(0));
    }

    private Path write(String rel, String text) throws Exception {
        Path f = dir.resolve(rel);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
        return f;
    }

    private static List<CodeLens> lenses(Harness h, String uri) throws Exception {
        return h.server.getTextDocumentService().codeLens(new CodeLensParams(new TextDocumentIdentifier(uri)))
                .get(30, TimeUnit.SECONDS).stream().map(CodeLens.class::cast)
                .filter(l -> !l.getCommand().getTitle().startsWith("▶") && !l.getCommand().getTitle().startsWith("Debug"))
                .toList();
    }

    private static List<String> titles(List<CodeLens> lenses) {
        return lenses.stream().map(l -> l.getCommand().getTitle()).toList();
    }
}
