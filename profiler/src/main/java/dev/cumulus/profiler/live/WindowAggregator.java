package dev.cumulus.profiler.live;

import dev.cumulus.profiler.Events;
import dev.cumulus.profiler.Json;
import dev.cumulus.profiler.LongList;
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
 * returns the window as one JSON line and starts the next. Thread-safe (the stream thread adds, the shutdown hook may
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
        final LongList latenciesNs = new LongList();

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
    private final java.util.Map<String, String> classNames = new java.util.HashMap<>();
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
                Obj o = obj("tuple", Events.str(e, "element"));
                o.count++;
                long b = Events.amount(e, "bytes");
                o.bytes += b;
                bytes += b;
                o.blockedNs += Events.amount(e, "blockedNs");
                o.latenciesNs.add(e.getDuration().toNanos());
            }
            case Events.PASTSET_SUMMARY -> {
                Obj o = obj("tuple", Events.str(e, "element"));
                o.moves += Events.amount(e, "moves");
                o.observes += Events.amount(e, "observes");
                o.blockedNs += Events.amount(e, "blockedNs");
            }
            case Events.NODE_LIFECYCLE -> {
                // counted in events only
            }
            default -> {
                if (e.hasField("array")) {
                    array(e, type);
                } else {
                    String key = e.hasField("barrier") ? Events.str(e, "barrier")
                        : e.hasField("object") ? Events.str(e, "object") : "";
                    obj("other", Events.shortName(type) + (key.isEmpty() ? "" : " " + key)).count++;
                }
            }
        }
    }

    private void array(RecordedEvent e, String type) {
        Obj o = obj("array", Events.str(e, "array"));
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
        Obj o = obj("remote", object);
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
        Obj o = obj("cloud", cloud);
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
            obj("cloud", cloud).restarts = cumulative;
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
        Json.Writer w = new Json.Writer();
        w.beginObject().value("v", 1).value("node", node).value("t", nowMs).value("windowMs", windowMs);
        if (events > 0) {
            w.value("firstEventMs", firstEventMs).value("lastEventMs", lastEventMs);
        }
        w.beginObject("totals").value("events", events).value("remoteCalls", remoteCalls).value("writes", writes)
            .value("bytes", bytes).value("sequencerArrivals", sequencerArrivals).value("misses", misses).endObject();
        w.beginArray("objects");
        for (Obj o : list) {
            w.beginObject().value("kind", o.kind).value("name", o.name);
            switch (o.kind) {
                case "cloud" -> {
                    String className = classNames.get(o.name);
                    if (className != null) {
                        w.value("className", className); // lets the editor put the figures on the class
                    }
                    w.value("writes", o.count).value("writesPerSec", o.count / sec)
                        .value("p50WriteUs", o.latenciesNs.percentile(50) / 1000.0)
                        .value("p99WriteUs", o.latenciesNs.percentile(99) / 1000.0).value("bytes", o.bytes)
                        .value("migrations", sequencerArrivals);
                    if (o.restarts >= 0) {
                        w.value("restarts", o.restarts);
                    }
                }
                case "remote" -> w.value("calls", o.count).value("callsPerSec", o.count / sec)
                    .value("p50Us", o.latenciesNs.percentile(50) / 1000.0)
                    .value("p99Us", o.latenciesNs.percentile(99) / 1000.0).value("failed", o.failed)
                    .value("bytes", o.bytes);
                case "tuple" -> w.value("remoteOps", o.count).value("moves", o.moves).value("observes", o.observes)
                    .value("blockedMs", o.blockedNs / 1e6).value("p99Us", o.latenciesNs.percentile(99) / 1000.0)
                    .value("bytes", o.bytes);
                case "array" -> w.value("misses", o.misses).value("missesPerSec", o.misses / sec)
                    .value("p99MissUs", o.latenciesNs.percentile(99) / 1000.0)
                    .value("invalidations", o.invalidations).value("hits", o.hits).value("bytes", o.bytes);
                default -> w.value("count", o.count);
            }
            w.endObject();
        }
        w.endArray();
        if (more > 0) {
            w.value("more", more);
        }
        w.endObject();
        return w.toString();
    }
}
