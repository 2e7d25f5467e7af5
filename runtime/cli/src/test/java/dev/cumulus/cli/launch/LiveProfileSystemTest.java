package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.examples.matmul.MasterWorker;
import dev.cumulus.cli.profile.RecordedCalls;
import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileRecord;
import dev.cumulus.profiler.channel.ProfileReport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Live profiles of a real 2-node run: every node's summaries reach the launcher, its file and stdout, each followed by
 * the cluster's figures (the nodes' newest windows summed); the report at the end has the figures of the run's
 * recordings, read here without the profiler.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LiveProfileSystemTest {
    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @Test
    void everyNodeStreamsSummariesToTheLauncher() throws Exception {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        LaunchContext ctx = new LaunchContext().nodes(2).mainClass(MasterWorker.class.getName())
            .programArgs(List.of("96")).classpath(location(MasterWorker.class)).profile(true)
            .runsRoot(tmp.resolve("runs"));

        RunResult result = new ClusterLauncher(ctx, out.stream(), err.stream()).profileStream(true).run();

        assertEquals(0, result.exitCode(), out.text() + err.text());
        Map<Integer, Integer> perNode = new TreeMap<>();
        Map<Integer, LiveWindow> newest = new TreeMap<>();
        int figuresLines = 0;
        ProfileRecord last = null;
        for (String line : out.text().split("\\R")) {
            if (line.startsWith("@cumulus-profile ")) {
                last = ProfileGson.read(line.substring("@cumulus-profile ".length()));
                if (last instanceof LiveWindow w) {
                    perNode.merge(w.node(), 1, Integer::sum);
                    newest.put(w.node(), w);
                    assertTrue(w.recvMs() != null && w.sentMs() > 0 && w.objects() != null, line);
                } else if (last instanceof LiveFigures f) {
                    figuresLines++;
                    assertLiveFiguresSumTheNewestWindows(f, newest);
                }
            }
            assertFalse(line.startsWith("[0] @cumulus-profile") || line.startsWith("[1] @cumulus-profile"), line);
        }
        assertTrue(last instanceof ProfileReport report && !report.remote().isEmpty(),
            "the stream ends with the run's report: " + last);
        assertEquals(perNode.values().stream().mapToInt(Integer::intValue).sum(), figuresLines,
            "the cluster's figures after every window");
        ProfileReport report = (ProfileReport) last;
        RecordedCalls recorded = RecordedCalls.read(result.runDir());
        List<ObjectFigures> remote = Stream.concat(report.objects().stream(), report.internal().stream())
            .filter(f -> f.kind().equals("remote")).toList();
        assertEquals(recorded.latenciesNs.keySet(), remote.stream().map(ObjectFigures::name)
            .collect(Collectors.toCollection(TreeSet::new)), "every object called");
        remote.forEach(recorded::assertMatches);
        assertTrue(report.internal().stream().allMatch(f -> f.name().startsWith("cumulus.")), report.toString());
        assertTrue(report.objects().stream().noneMatch(f -> f.name().startsWith("cumulus.")), report.toString());
        assertTrue(perNode.getOrDefault(0, 0) >= 1 && perNode.getOrDefault(1, 0) >= 1,
            "a summary from each node on stdout: " + perNode + "\n" + out.text() + err.text());
        Path jsonl = result.runDir().resolve(ClusterLauncher.LIVE_PROFILE);
        List<String> lines = Files.readAllLines(jsonl);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"node\":0,")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"node\":1,")), lines.toString());
        assertTrue(out.text().contains("remote calls by object and method:"), "the offline report still follows");
    }

    /** Each object's live calls/s are its calls/s in the nodes' newest windows, summed; p99 the highest. */
    private static void assertLiveFiguresSumTheNewestWindows(LiveFigures f, Map<Integer, LiveWindow> newest) {
        assertEquals(List.copyOf(newest.keySet()), f.nodes(), "every node counts (none is silent for seconds)");
        List<ObjectFigures> all = new ArrayList<>(f.objects());
        all.addAll(f.internal());
        for (ObjectFigures o : all) {
            if (!o.kind().equals("remote")) {
                continue;
            }
            double rate = 0;
            double p99 = 0;
            for (LiveWindow w : newest.values()) {
                for (LiveObject x : w.objectsOrEmpty()) {
                    if (x instanceof LiveObject.Remote r && r.name().equals(o.name())) {
                        rate += r.callsPerSec();
                        p99 = Math.max(p99, r.p99Us());
                    }
                }
            }
            assertEquals(rate, o.operationsPerSec(), 1e-9, o.name() + " calls/s summed over nodes");
            assertEquals(p99, o.p99Us() == null ? 0 : o.p99Us(), 1e-9, o.name() + " p99");
        }
        assertTrue(f.objects().stream().noneMatch(o -> o.name().startsWith("cumulus.")), f.objects().toString());
    }

    private static String location(Class<?> c) {
        try {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
