package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Events;
import dev.cumulus.profiler.Latencies;
import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.RecordWriter;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One node's events over a window, per object ({@code kind} and {@code name}) and in total; {@link #drain(long)}
 * returns the window as one JSON line (a {@link LiveWindow} written by {@link RecordWriter}) and starts the next.
 * Latencies go into HdrHistograms, so a busy window costs no more memory than a quiet one. Thread-safe (the stream thread adds, the shutdown hook may
 * drain).
 */
public final class WindowAggregator {
    /** Longest line {@link #drain} returns, in UTF-8 bytes; objects beyond it are dropped and counted in "more". */
    public static final int MAX_LINE_BYTES = 16 * 1024;
    /** Most objects in one line (the busiest are kept). */
    public static final int MAX_OBJECTS = 64;
    private static final int MAX_NAME = 200;

    private static final class Obj {
        final String kind;
        final String name;
        long count;
        long bytes;
        long failed;
        long moves;
        long observes;
        long blockedNs;
        long misses;
        long invalidations;
        long hits;
        long restarts = -1;
        final Latencies latenciesNs = new Latencies();

        Obj(String kind, String name) {
            this.kind = kind;
            this.name = name;
        }

        long activity() {
            return count + moves + observes + misses + invalidations;
        }
    }

    private final int node;
    private final Map<String, Obj> objects = new LinkedHashMap<>();
    /** Cumulative restart counters per cloud as last reported, to send only changes. */
    private final Map<String, Long> lastRestarts = new HashMap<>();
    /** Cloud name → root class, from the periodic summaries; kept across windows. */
    private final Map<String, String> classNames = new HashMap<>();
    private long windowStartMs;
    private long events;
    private long remoteCalls;
    private long writes;
    private long bytes;
    private long sequencerArrivals;
    private long misses;
    private long firstEventMs = Long.MAX_VALUE;
    private long lastEventMs = Long.MIN_VALUE;

    public WindowAggregator(int node, long nowMs) {
        this.node = node;
        this.windowStartMs = nowMs;
    }

    private Obj obj(String kind, String name) {
        String n = name.length() > MAX_NAME ? name.substring(0, MAX_NAME) : name;
        return objects.computeIfAbsent(kind + '\u0000' + n, k -> new Obj(kind, n));
    }

    /** Adds one event; events outside {@code dev.cumulus.*} are ignored. */
    public synchronized void accept(RecordedEvent e) {
        String type = e.getEventType().getName();
        if (!type.startsWith(Events.PREFIX)) {
            return;
        }
        events++;
        long endMs = e.getEndTime().toEpochMilli();
        firstEventMs = Math.min(firstEventMs, endMs);
        lastEventMs = Math.max(lastEventMs, endMs);
        switch (type) {
            case Events.REMOTE_CALL -> {
                String outcome = Events.str(e, "outcome");
                if (outcome.equals(Events.MOVED)) {
                    return; // reached a forwarding address: the call to the new node is its own event
                }
                remoteCall(Events.str(e, "object"), e.getDuration().toNanos(),
                    Events.amount(e, "requestBytes") + Events.amount(e, "replyBytes"),
                    !outcome.isEmpty() && !outcome.equals("ok"));
            }
            case Events.BROADCAST_WRITE -> write(Events.str(e, "cloud"), e.getDuration().toNanos(),
                Events.amount(e, "bytes"));
            case Events.SEQUENCER_MIGRATION -> sequencerArrivals++;
            case Events.CLOUD_SUMMARY -> {
                String cloud = Events.str(e, "cloud");
                cloudClass(cloud, Events.str(e, "className"));
                restarts(cloud, Events.amount(e, "restarts"));
            }
            case Events.PASTSET_OPERATION -> {
                Obj o = obj(LiveObject.Tuple.KIND, Events.str(e, "element"));
                o.count++;
                long b = Events.amount(e, "bytes");
                o.bytes += b;
                bytes += b;
                o.blockedNs += Events.amount(e, "blockedNs");
                o.latenciesNs.add(e.getDuration().toNanos());
            }
            case Events.PASTSET_SUMMARY -> {
                Obj o = obj(LiveObject.Tuple.KIND, Events.str(e, "element"));
                o.moves += Events.amount(e, "moves");
                o.observes += Events.amount(e, "observes");
                o.blockedNs += Events.amount(e, "blockedNs");
            }
            case Events.NODE_LIFECYCLE -> {
                // counted in events only
            }
            case Events.REMOTE_CALL_SERVED -> {
                // the caller's event of the same call counts it
            }
            default -> {
                if (e.hasField("array")) {
                    array(e, type);
                } else {
                    String key = e.hasField("barrier") ? Events.str(e, "barrier")
                        : e.hasField("object") ? Events.str(e, "object") : "";
                    obj(LiveObject.Other.KIND, Events.shortName(type) + (key.isEmpty() ? "" : " " + key)).count++;
                }
            }
        }
    }

    private void array(RecordedEvent e, String type) {
        Obj o = obj(LiveObject.Array.KIND, Events.str(e, "array"));
        long b = 0;
        for (ValueDescriptor d : e.getFields()) {
            if (Events.isNumber(d) && Events.isBytes(d)) {
                b += Events.amount(e, d.getName());
            }
        }
        o.bytes += b;
        bytes += b;
        String lower = Events.shortName(type).toLowerCase(Locale.ROOT);
        if (e.hasField("partition")) {
            if (lower.contains("miss")) {
                o.misses++;
                misses++;
                o.latenciesNs.add(e.getDuration().toNanos());
            } else if (lower.contains("invalidat")) {
                o.invalidations++;
            } else {
                o.count++;
            }
            return;
        }
        for (ValueDescriptor d : e.getFields()) {
            if (!Events.isNumber(d) || Events.isBytes(d) || d.getName().equals("node")) {
                continue;
            }
            String f = d.getName().toLowerCase(Locale.ROOT);
            if (f.endsWith("hits")) {
                o.hits += Events.amount(e, d.getName());
            } else if (f.contains("invalidat")) {
                // the home's summary counts what the invalidation events already counted one by one
                o.invalidations = Math.max(o.invalidations, Events.amount(e, d.getName()));
            }
        }
    }

    /** A remote call the node made. */
    public synchronized void remoteCall(String object, long latencyNs, long callBytes, boolean failed) {
        Obj o = obj(LiveObject.Remote.KIND, object);
        o.count++;
        o.bytes += callBytes;
        o.latenciesNs.add(latencyNs);
        if (failed) {
            o.failed++;
        }
        remoteCalls++;
        bytes += callBytes;
    }

    /** A replicated write the node issued, applied locally after {@code latencyNs}. */
    public synchronized void write(String cloud, long latencyNs, long writeBytes) {
        Obj o = obj(LiveObject.Cloud.KIND, cloud);
        o.count++;
        o.bytes += writeBytes;
        o.latenciesNs.add(latencyNs);
        writes++;
        bytes += writeBytes;
    }

    /** The root class of a cloud (from its periodic summary), so the editor can put its figures on the class. */
    public synchronized void cloudClass(String cloud, String className) {
        if (className != null && !className.isEmpty()) {
            classNames.put(cloud, className);
        }
    }

    /** The cumulative restart counter of a cloud (from its periodic summary). */
    public synchronized void restarts(String cloud, long cumulative) {
        Long last = lastRestarts.put(cloud, cumulative);
        if (last == null || last != cumulative) {
            obj(LiveObject.Cloud.KIND, cloud).restarts = cumulative;
        }
    }

    /** The window so far as one JSON line (no newline), and a new window from {@code nowMs}. */
    public synchronized String drain(long nowMs) {
        long windowMs = Math.max(1, nowMs - windowStartMs);
        double sec = windowMs / 1000.0;
        List<Obj> list = new ArrayList<>(objects.values());
        list.sort(Comparator.comparingLong(Obj::activity).reversed());
        int more = Math.max(0, list.size() - MAX_OBJECTS);
        if (more > 0) {
            list = list.subList(0, MAX_OBJECTS);
        }
        String line = encode(list, more, nowMs, windowMs, sec);
        while (line.getBytes(StandardCharsets.UTF_8).length > MAX_LINE_BYTES && !list.isEmpty()) {
            int drop = Math.max(1, list.size() / 4);
            list = list.subList(0, list.size() - drop);
            more += drop;
            line = encode(list, more, nowMs, windowMs, sec);
        }
        objects.clear();
        windowStartMs = nowMs;
        events = remoteCalls = writes = bytes = sequencerArrivals = misses = 0;
        firstEventMs = Long.MAX_VALUE;
        lastEventMs = Long.MIN_VALUE;
        return line;
    }

    private String encode(List<Obj> list, int more, long nowMs, long windowMs, double sec) {
        List<LiveObject> objs = new ArrayList<>(list.size());
        for (Obj o : list) {
            objs.add(switch (o.kind) {
                case LiveObject.Cloud.KIND -> new LiveObject.Cloud(o.kind, o.name, classNames.get(o.name), o.count,
                    o.count / sec, o.latenciesNs.percentileMicros(50), o.latenciesNs.percentileMicros(99), o.bytes,
                    sequencerArrivals, o.restarts >= 0 ? o.restarts : null);
                case LiveObject.Remote.KIND -> new LiveObject.Remote(o.kind, o.name, o.count, o.count / sec,
                    o.latenciesNs.percentileMicros(50), o.latenciesNs.percentileMicros(99), o.failed, o.bytes);
                case LiveObject.Tuple.KIND -> new LiveObject.Tuple(o.kind, o.name, o.count, o.moves, o.observes,
                    Latencies.millis(o.blockedNs), o.latenciesNs.percentileMicros(99), o.bytes);
                case LiveObject.Array.KIND -> new LiveObject.Array(o.kind, o.name, o.misses, o.misses / sec,
                    o.latenciesNs.percentileMicros(99), o.invalidations, o.hits, o.bytes);
                default -> new LiveObject.Other(LiveObject.Other.KIND, o.name, o.count);
            });
        }
        LiveWindow w = new LiveWindow(node, nowMs, windowMs, events > 0 ? firstEventMs : null,
            events > 0 ? lastEventMs : null,
            new LiveWindow.Totals(events, remoteCalls, writes, bytes, sequencerArrivals, misses), objs,
            more > 0 ? more : null);
        return RecordWriter.write(w);
    }
}
