package dev.cumulus.cli.profile;

import dev.cumulus.profiler.channel.ObjectFigures;
import dev.cumulus.profiler.figures.ReportFigures;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a run's recordings say of its remote calls, read straight from the {@code node-<i>.jfr} files with the JDK's
 * {@link RecordingFile} and counted here, without the profiler: the yardstick the editor's figures are held to.
 */
public final class RecordedCalls {
    /** object → latencies (ns) of its calls that ran (a call that reached a forwarding address is not one). */
    public final Map<String, List<Long>> latenciesNs = new TreeMap<>();
    /** The run's span: the earliest start and the latest end of any {@code dev.cumulus.*} event. */
    public long firstNs = Long.MAX_VALUE;
    public long lastNs = Long.MIN_VALUE;

    public static RecordedCalls read(Path runDir) throws IOException {
        RecordedCalls r = new RecordedCalls();
        List<Path> files;
        try (Stream<Path> s = Files.list(runDir)) {
            files = s.filter(f -> f.getFileName().toString().matches("node-\\d+\\.jfr")).toList();
        }
        assertTrue(!files.isEmpty(), "no recordings in " + runDir);
        for (Path f : files) {
            for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
                String type = e.getEventType().getName();
                if (!type.startsWith("dev.cumulus.")) {
                    continue;
                }
                r.firstNs = Math.min(r.firstNs, ns(e.getStartTime()));
                r.lastNs = Math.max(r.lastNs, ns(e.getEndTime()));
                if (type.equals("dev.cumulus.RemoteCall") && !"moved".equals(e.getString("outcome"))) {
                    r.latenciesNs.computeIfAbsent(e.getString("object"), k -> new ArrayList<>())
                        .add(e.getDuration().toNanos());
                }
            }
        }
        return r;
    }

    public long calls(String object) {
        return latenciesNs.getOrDefault(object, List.of()).size();
    }

    /** The nearest-rank {@code p}th percentile of the object's call latencies, µs. */
    public double percentileUs(String object, double p) {
        List<Long> sorted = latenciesNs.get(object).stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(0, rank - 1)) / 1000.0;
    }

    /**
     * Calls over the run's span, or null when the span is under a second or the object had fewer than
     * {@link ReportFigures#MIN_OPERATIONS} calls (the profiler gives no rate then).
     */
    public Double ratePerSec(String object) {
        long spanNs = lastNs - firstNs;
        return spanNs < ReportFigures.MIN_SPAN_NS || calls(object) < ReportFigures.MIN_OPERATIONS ? null
            : calls(object) / (spanNs / 1e9);
    }

    /** The figures of a remote object after the run equal what the recordings say (percentiles within 1 %). */
    public void assertMatches(ObjectFigures f) {
        String o = f.name();
        assertEquals("remote", f.kind(), o);
        assertEquals("calls", f.operation(), o);
        assertEquals(calls(o), f.operations(), o + ": calls");
        Double rate = ratePerSec(o);
        if (rate == null) {
            assertNull(f.operationsPerSec(), o + ": no rate over a span under a second or for a few calls");
        } else {
            assertEquals(rate, f.operationsPerSec(), rate * 1e-6, o + ": calls over the run's span");
        }
        for (double p : new double[] {50, 99}) {
            double expected = percentileUs(o, p);
            double actual = p == 50 ? f.p50Us() : f.p99Us();
            assertEquals(expected, actual, expected * 0.01 + 0.001, o + ": p" + p + " µs");
        }
    }

    private static long ns(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
