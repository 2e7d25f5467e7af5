package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Latencies;
import dev.cumulus.profiler.figures.ReportFigures;
import dev.cumulus.profiler.figures.RuntimeObjects;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileRecord;
import dev.cumulus.profiler.channel.ProfileReport;
import dev.cumulus.profiler.report.RunProfile.ArrayStats;
import dev.cumulus.profiler.report.RunProfile.CallStats;
import dev.cumulus.profiler.report.RunProfile.Cell;
import dev.cumulus.profiler.report.RunProfile.Lifecycle;
import dev.cumulus.profiler.report.RunProfile.Migration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A {@link RunProfile} as the channel's {@link ProfileReport} record (docs/design/PROFILER.md), for the editor and
 * scripts: {@code cumulus profile --json} prints it, and a run started with {@code --profile-stream} ends with it.
 */
public final class JsonReport {
    private JsonReport() {
    }

    /** The report as one line of JSON. */
    public static String render(RunProfile p) {
        return ProfileGson.write(of(p));
    }

    /** The report as a record. */
    public static ProfileReport of(RunProfile p) {
        List<ProfileReport.RemoteMethod> remote = new ArrayList<>();
        p.calls().forEach((object, methods) -> methods.forEach((method, s) -> remote.add(
            new ProfileReport.RemoteMethod(object, method, s.calls(), s.asyncCalls(), s.failedCalls(),
                s.percentileMicros(50), s.percentileMicros(99), s.requestBytes(), s.replyBytes(), ids(s.callers()),
                ids(s.targets()), RuntimeObjects.isInternal("remote", object)))));

        List<ProfileReport.Placement> placements = new ArrayList<>();
        p.placements().objects().forEach((object, o) -> placements.add(placement(p, object, o)));
        List<ProfileReport.Suggestion> suggestions = new ArrayList<>();
        for (Placements.Suggestion s : p.placements().suggestions()) {
            suggestions.add(new ProfileReport.Suggestion(s.object(), s.node(), s.toNode(), s.sharePercent(),
                s.callerCalls(), s.calls(), s.code(), s.message()));
        }

        List<ProfileReport.Cloud> clouds = new ArrayList<>();
        TreeSet<String> cloudNames = new TreeSet<>(p.writes().keySet());
        cloudNames.addAll(p.restarts().keySet());
        for (String cloud : cloudNames) {
            Map<String, CallStats> methods = p.writes().getOrDefault(cloud, Map.of());
            TreeSet<Integer> writers = new TreeSet<>();
            methods.values().forEach(s -> writers.addAll(s.callers()));
            List<ProfileReport.CloudMethod> ms = new ArrayList<>();
            methods.forEach((method, s) -> ms.add(new ProfileReport.CloudMethod(method, s.calls(),
                s.percentileMicros(50), s.percentileMicros(99), s.requestBytes(), ids(s.callers()))));
            clouds.add(new ProfileReport.Cloud(cloud, methods.values().stream().mapToLong(CallStats::calls).sum(),
                p.restarts(cloud), methods.values().stream().mapToLong(CallStats::requestBytes).sum(), ids(writers),
                ms));
        }

        Map<String, Long> arrivals = new LinkedHashMap<>();
        p.sequencerArrivals().forEach((n, c) -> arrivals.put(Integer.toString(n), c));
        List<ProfileReport.Migration> timeline = new ArrayList<>();
        for (Migration m : p.migrations()) {
            timeline.add(new ProfileReport.Migration(m.timeNs() / 1_000_000, m.from(), m.to(), m.nextSeq()));
        }
        ProfileReport.Sequencer sequencer = new ProfileReport.Sequencer(p.migrations().size(), arrivals, timeline);

        List<ProfileReport.Element> elements = new ArrayList<>();
        p.elements().forEach((name, s) -> elements.add(new ProfileReport.Element(name, s.moves(), s.observes(),
            s.remoteOperations(), Latencies.millis(s.blockedNs()), s.remoteLatenciesNs().percentileMicros(99),
            s.bytes(), s.errors(), s.maxDistance(), ids(s.homes()), ids(s.callers()))));

        List<ProfileReport.Array> arrays = new ArrayList<>();
        for (Map.Entry<String, ArrayStats> en : p.arrays().entrySet()) {
            ArrayStats a = en.getValue();
            List<ProfileReport.ArrayNode> nodes = new ArrayList<>();
            a.nodes().forEach((n, an) -> nodes.add(new ProfileReport.ArrayNode(n, an.hits(), an.misses(),
                an.invalidations(), an.bytes())));
            List<ProfileReport.Partition> partitions = new ArrayList<>();
            for (Map.Entry<Integer, TreeMap<Integer, Cell>> part : a.partitions().entrySet()) {
                part.getValue().forEach((n, c) -> partitions.add(new ProfileReport.Partition(part.getKey(), n,
                    c.misses(), c.invalidations(), c.ownershipTransfers(), c.bytes())));
            }
            arrays.add(new ProfileReport.Array(en.getKey(), a.hits(), a.misses(), a.invalidations(), a.bytes(),
                a.ownershipTransfers(), a.missLatenciesNs().percentileMicros(50),
                a.missLatenciesNs().percentileMicros(99), nodes, partitions));
        }

        List<ProfileReport.Other> other = new ArrayList<>();
        p.other().forEach((k, s) -> other.add(new ProfileReport.Other(k, s.count(),
            Latencies.millis(s.totalDurationNs()), Latencies.micros(s.maxDurationNs()), s.bytes(), ids(s.nodes()))));

        List<ProfileReport.Node> nodes = new ArrayList<>();
        p.nodes().forEach((n, t) -> nodes.add(new ProfileReport.Node(n, t.events(), t.remoteCalls(), t.failedCalls(),
            t.writes(), t.sequencerArrivals(), t.tupleOperations(), t.arrayMisses(), t.bytes())));

        List<ProfileReport.Lifecycle> lifecycle = new ArrayList<>();
        for (Lifecycle l : p.lifecycle()) {
            lifecycle.add(new ProfileReport.Lifecycle(l.time().toEpochMilli(), l.node(), l.phase(), l.subject(),
                l.detail()));
        }
        ReportFigures.Split figures = ReportFigures.of(p);
        return new ProfileReport(ProfileReport.TYPE, ProfileRecord.VERSION, p.runDir().toString(),
            p.firstNs() / 1_000_000, p.lastNs() / 1_000_000, List.copyOf(p.recordings()), List.copyOf(p.problems()),
            remote, placements, suggestions, clouds, sequencer, elements, arrays, other, nodes, lifecycle,
            figures.objects(), figures.internal(), singleVm(p.singleVm()));
    }

    /** The single-VM heap's section, or null when the run recorded none of its events. */
    static ProfileReport.SingleVm singleVm(SingleVmHeap h) {
        if (h.isEmpty()) {
            return null;
        }
        List<ProfileReport.HeapField> fields = new ArrayList<>();
        h.fields().forEach((c, byField) -> byField.forEach((f, s) -> fields.add(new ProfileReport.HeapField(c, f,
            s.fetches(), Latencies.millis(s.fetchNs()), s.fetchedEntries(), s.writeBacks(),
            Latencies.millis(s.writeBackNs()), ids(s.nodes()), ids(s.homes())))));
        List<ProfileReport.HeapLock> locks = new ArrayList<>();
        h.locks().forEach((c, s) -> locks.add(new ProfileReport.HeapLock(c, s.waits(), Latencies.millis(s.waitNs()),
            Latencies.micros(s.longestNs()), ids(s.nodes()))));
        List<ProfileReport.HeapInvalidations> invalidations = new ArrayList<>();
        h.invalidations().forEach((n, v) -> invalidations.add(new ProfileReport.HeapInvalidations(n, v)));
        return new ProfileReport.SingleVm(fields, locks, invalidations);
    }

    private static ProfileReport.Placement placement(RunProfile p, String object, Placements.ObjectPlacement o) {
        List<ProfileReport.Stay> location = new ArrayList<>();
        for (Placements.Stay s : o.location(p.firstNs(), p.lastNs())) {
            location.add(new ProfileReport.Stay(s.node(), s.fromNs() / 1_000_000, s.toNs() / 1_000_000));
        }
        List<ProfileReport.Move> moves = new ArrayList<>();
        for (Placements.Move m : o.moves()) {
            moves.add(new ProfileReport.Move(m.timeNs() / 1_000_000, m.kind(), m.from(), m.to(), m.stateBytes(),
                Latencies.micros(m.pauseNs()), m.callsHeld(), m.reason(), m.outcome()));
        }
        List<ProfileReport.Caller> callers = new ArrayList<>();
        o.callers().forEach((n, c) -> callers.add(new ProfileReport.Caller(n, c.calls(), c.forwarded(),
            o.calls() > 0 ? 100.0 * c.calls() / o.calls() : 0)));
        return new ProfileReport.Placement(object, o.node(), o.calls(), o.forwarded(), location, moves, callers);
    }

    private static List<Integer> ids(TreeSet<Integer> ids) {
        return List.copyOf(ids);
    }
}
