package dev.cumulus.profiler.figures;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ObjectFigures;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The launcher's merge of the nodes' live windows into the cluster's figures ({@link LiveFigures}): it keeps each
 * node's newest window and, after every window, sums over the nodes what each counted — operations, rates (each node's
 * count over its own window), bytes, failures — and takes the highest of their latency percentiles (a node's window
 * carries percentiles, not samples). A node's window stops counting once it is {@link #STALE_MS} older than the newest
 * one received (a node sends a window every second even when idle, so only a node that ended falls silent). Every
 * object seen in the run stays listed; one with no activity in the newest windows shows zero operations and no
 * latency. Tuple elements count moves and observes at their homes, or the remote operations callers saw when no home
 * reported.
 *
 * <p>Thread-safe (the sink's receive thread feeds it).
 */
public final class WindowMerger {
    /** A node's newest window counts until it is this much older than the newest window received. */
    public static final long STALE_MS = 3_000;
    /** Most objects remembered; later ones are left out (a run names its objects, it does not stream new ones). */
    static final int MAX_OBJECTS = 2_000;

    private final Map<Integer, LiveWindow> newest = new TreeMap<>();
    /** Every object seen, by kind and name, in the order first seen. */
    private final Map<String, LiveObject> seen = new LinkedHashMap<>();
    private final Map<String, String> classNames = new HashMap<>();
    /** cloud → node → the node's newest cumulative restart count. */
    private final Map<String, Map<Integer, Long>> restarts = new HashMap<>();

    private static final class Sum {
        long operations;
        double perSec;
        long homeOperations;
        double homePerSec;
        Double p50Us;
        Double p99Us;
        long bytes;
        long failed;
        long hits;
        long invalidations;
    }

    /** Takes one window (as the sink read it) and returns the cluster's figures with it. */
    public synchronized LiveFigures accept(LiveWindow w) {
        newest.put(w.node(), w);
        for (LiveObject o : w.objectsOrEmpty()) {
            String key = key(o.kind(), o.name());
            if (!seen.containsKey(key) && seen.size() < MAX_OBJECTS) {
                seen.put(key, o);
            }
            if (o instanceof LiveObject.Cloud c) {
                if (c.className() != null) {
                    classNames.put(c.name(), c.className());
                }
                if (c.restarts() != null) {
                    restarts.computeIfAbsent(c.name(), k -> new TreeMap<>()).put(w.node(), c.restarts());
                }
            }
        }
        return figures();
    }

    private LiveFigures figures() {
        long newestMs = newest.values().stream().mapToLong(WindowMerger::receivedMs).max().orElse(0);
        Map<String, Sum> sums = new HashMap<>();
        List<Integer> nodes = new ArrayList<>();
        long sequencerMigrations = 0;
        Long lastEventMs = null;
        for (LiveWindow w : newest.values()) {
            if (newestMs - receivedMs(w) > STALE_MS) {
                continue;
            }
            nodes.add(w.node());
            if (w.totals() != null) {
                sequencerMigrations += w.totals().sequencerArrivals();
            }
            if (w.lastEventMs() != null) {
                lastEventMs = lastEventMs == null ? w.lastEventMs() : Math.max(lastEventMs, w.lastEventMs());
            }
            double sec = Math.max(1, w.windowMs()) / 1000.0;
            for (LiveObject o : w.objectsOrEmpty()) {
                add(sums.computeIfAbsent(key(o.kind(), o.name()), k -> new Sum()), o, sec);
            }
        }
        List<ObjectFigures> objects = new ArrayList<>();
        List<ObjectFigures> internal = new ArrayList<>();
        for (Map.Entry<String, LiveObject> e : seen.entrySet()) {
            LiveObject o = e.getValue();
            ObjectFigures f = figures(o.kind(), o.name(), sums.getOrDefault(e.getKey(), new Sum()));
            (RuntimeObjects.isInternal(o.kind(), o.name()) ? internal : objects).add(f);
        }
        objects.sort(Operations.BUSIEST_FIRST);
        internal.sort(Operations.BUSIEST_FIRST);
        return new LiveFigures(newestMs, lastEventMs, nodes, sequencerMigrations, objects, internal);
    }

    private static void add(Sum s, LiveObject o, double sec) {
        switch (o) {
            case LiveObject.Cloud c -> {
                s.operations += c.writes();
                s.perSec += c.writesPerSec();
                s.bytes += c.bytes();
                if (c.writes() > 0) {
                    latencies(s, c.p50WriteUs(), c.p99WriteUs());
                }
            }
            case LiveObject.Remote r -> {
                s.operations += r.calls();
                s.perSec += r.callsPerSec();
                s.bytes += r.bytes();
                s.failed += r.failed();
                if (r.calls() > 0) {
                    latencies(s, r.p50Us(), r.p99Us());
                }
            }
            case LiveObject.Tuple t -> {
                s.operations += t.remoteOperations();
                s.perSec += t.remoteOperations() / sec;
                s.homeOperations += t.moves() + t.observes();
                s.homePerSec += (t.moves() + t.observes()) / sec;
                s.bytes += t.bytes();
                if (t.remoteOperations() > 0) {
                    s.p99Us = max(s.p99Us, t.remoteP99Us());
                }
            }
            case LiveObject.Array a -> {
                s.operations += a.misses();
                s.perSec += a.missesPerSec();
                s.bytes += a.bytes();
                s.hits += a.hits();
                s.invalidations += a.invalidations();
                if (a.misses() > 0) {
                    s.p99Us = max(s.p99Us, a.p99MissUs());
                }
            }
            case LiveObject.Other x -> {
                s.operations += x.count();
                s.perSec += x.count() / sec;
            }
        }
    }

    private ObjectFigures figures(String kind, String name, Sum s) {
        boolean home = kind.equals(LiveObject.Tuple.KIND) && s.homeOperations > 0;
        long operations = home ? s.homeOperations : s.operations;
        double perSec = home ? s.homePerSec : s.perSec;
        boolean cloud = kind.equals(LiveObject.Cloud.KIND);
        boolean array = kind.equals(LiveObject.Array.KIND);
        Long restartSum = null;
        if (cloud && restarts.containsKey(name)) {
            restartSum = restarts.get(name).values().stream().mapToLong(Long::longValue).sum();
        }
        return new ObjectFigures(kind, name, cloud ? classNames.get(name) : null, Operations.of(kind), operations,
            perSec, s.p50Us, s.p99Us, s.bytes, kind.equals(LiveObject.Remote.KIND) ? s.failed : null,
            array ? s.hits : null, array ? s.invalidations : null, restartSum, null, null);
    }

    private static void latencies(Sum s, double p50Us, double p99Us) {
        s.p50Us = max(s.p50Us, p50Us);
        s.p99Us = max(s.p99Us, p99Us);
    }

    private static Double max(Double a, double b) {
        return a == null ? b : Math.max(a, b);
    }

    private static long receivedMs(LiveWindow w) {
        return w.recvMs() != null ? w.recvMs() : w.sentMs();
    }

    private static String key(String kind, String name) {
        return kind + '\u0000' + name;
    }
}
