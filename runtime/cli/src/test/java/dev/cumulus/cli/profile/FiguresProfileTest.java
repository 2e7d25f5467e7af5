package dev.cumulus.cli.profile;

import dev.cumulus.LocalCluster;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileReport;
import dev.cumulus.profiler.figures.FigureText;
import dev.cumulus.profiler.figures.ReportFigures;
import dev.cumulus.profiler.report.JsonReport;
import dev.cumulus.profiler.report.RunProfile;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The figures the editor shows after a run (the report's {@code objects}, as the language server receives them) on a
 * real run (two nodes in this JVM) against its recording read without the profiler: calls, rate and percentiles per
 * object; an object called three times as often has three times the rate; the runtime's own objects (the name
 * directory the lookups call) are listed apart; a remote object's lens speaks of calls.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FiguresProfileTest {
    @TempDir
    Path dir;

    @Test
    void theEditorsFiguresAreTheRecordingsCalls() throws Exception {
        Path file = dir.resolve("node-0.jfr");
        try (Recording r = new Recording()) {
            r.enable(RemoteCallEvent.NAME).withoutThreshold();
            r.start();
            LocalCluster.run(2, cluster -> {
                if (cluster.nodeId() == 0) {
                    cluster.export(new Counter.Impl(), Counter.class, "once");
                    cluster.export(new Counter.Impl(), Counter.class, "thrice");
                }
                cluster.barrier();
                Counter once = cluster.lookup("once", Counter.class);
                Counter thrice = cluster.lookup("thrice", Counter.class);
                if (cluster.nodeId() == 1) {
                    // calls in the ratio 1:3, long enough and often enough that the run gives a rate (at least a
                    // second, at least ReportFigures.MIN_OPERATIONS calls of each)
                    long start = System.nanoTime();
                    int rounds = 0;
                    while (System.nanoTime() - start < 1_200_000_000L || rounds++ < ReportFigures.MIN_OPERATIONS) {
                        once.add(1);
                        for (int i = 0; i < 3; i++) {
                            thrice.add(1);
                        }
                    }
                }
                cluster.barrier();
            });
            r.stop();
            r.dump(file);
        }
        Files.writeString(dir.resolve("launch.properties"), "cumulus.nodes=1\n");
        RecordedCalls recorded = RecordedCalls.read(dir);
        ProfileReport report = (ProfileReport) ProfileGson.read(JsonReport.render(RunProfile.read(dir)));

        assertEquals(List.of("thrice", "once"), report.objects().stream().map(ObjectFigures::name).toList(),
            "the program's objects only, busiest first");
        ObjectFigures once = report.objects().get(1);
        ObjectFigures thrice = report.objects().get(0);
        recorded.assertMatches(once);
        recorded.assertMatches(thrice);
        assertEquals(3 * once.operations(), thrice.operations());
        assertEquals(3 * once.operationsPerSec(), thrice.operationsPerSec(), 1e-6 * thrice.operationsPerSec(),
            "three times the calls over the same run: three times the rate");

        ObjectFigures names = report.internal().stream().filter(f -> f.name().equals("cumulus.names")).findFirst()
            .orElseThrow(() -> new AssertionError("the name directory's lookups: " + report.internal()));
        recorded.assertMatches(names);

        String lens = FigureText.describe(thrice, false);
        assertTrue(lens.startsWith(String.format(java.util.Locale.ROOT, "thrice: %,d calls · %,.1f/s · p99 ",
            recorded.calls("thrice"), recorded.ratePerSec("thrice"))), lens);
        assertFalse(lens.contains("write"), lens);
        assertTrue(FigureText.describe(thrice, true).matches("thrice: [\\d,]+ calls/s · p99 .*"));
    }
}
