package dev.cumulus.internal.cloud;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Once a second, per replicated object and node: writes shipped from this node, reads restarted as writes, and
 * sequencer arrivals so far (counters, not one event per operation).
 */
@Name(CloudSummaryEvent.NAME)
@Label("Replicated Object Summary")
@Category({"Cumulus", "Replication"})
@Description("Per-cloud counters of one node, emitted every second")
@StackTrace(false)
@Period("1 s")
public final class CloudSummaryEvent extends Event {
    public static final String NAME = "dev.cumulus.CloudSummary";
    private static final Set<Consumer<Emitter>> SOURCES = ConcurrentHashMap.newKeySet();
    private static final Map<Class<?>, Boolean> REGISTERED = new ConcurrentHashMap<>();

    @Label("Node")
    public int node;

    @Label("Cloud")
    public String cloud;

    @Label("Class")
    @Description("Binary name of the cloud's root class")
    public String className;

    @Label("Writes")
    @Description("Writes shipped from this node so far")
    public long writes;

    @Label("Restarts")
    @Description("Reads restarted as writes on this node so far")
    public long restarts;

    /** Emits one summary per cloud. */
    @FunctionalInterface
    public interface Emitter {
        void emit(int node, String cloud, String className, long writes, long restarts);
    }

    /** Adds a source of summaries (a node's cloud runtime); the periodic hook is registered once per JVM. */
    public static void addSource(Consumer<Emitter> source) {
        SOURCES.add(source);
        REGISTERED.computeIfAbsent(CloudSummaryEvent.class, c -> {
            try {
                FlightRecorder.addPeriodicEvent(CloudSummaryEvent.class, CloudSummaryEvent::emitAll);
            } catch (RuntimeException | Error e) {
                // no Flight Recorder in this JVM: summaries are simply not recorded
            }
            return Boolean.TRUE;
        });
    }

    public static void removeSource(Consumer<Emitter> source) {
        SOURCES.remove(source);
    }

    private static void emitAll() {
        for (Consumer<Emitter> source : SOURCES) {
            source.accept((node, cloud, className, writes, restarts) -> {
                CloudSummaryEvent e = new CloudSummaryEvent();
                e.node = node;
                e.cloud = cloud;
                e.className = className;
                e.writes = writes;
                e.restarts = restarts;
                e.commit();
            });
        }
    }
}
