package dev.cumulus.internal.singlevm;

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
import java.util.function.LongSupplier;

/**
 * Once a second, per single-VM node: the invalidations of its cache so far (one per acquire: monitor grant, volatile
 * read, thread start, join) — a counter, not one event per acquire.
 */
@Name(SingleVmInvalidationsEvent.NAME)
@Label("Single-VM Invalidations")
@Category({"Cumulus", "Single VM"})
@Description("Invalidations of this node's single-VM cache so far, emitted every second")
@StackTrace(false)
@Period("1 s")
public final class SingleVmInvalidationsEvent extends Event {
    public static final String NAME = "dev.cumulus.SingleVmInvalidations";
    private static final Map<Integer, LongSupplier> SOURCES = new ConcurrentHashMap<>();
    private static final Set<Class<?>> REGISTERED = ConcurrentHashMap.newKeySet();

    @Label("Node")
    public int node;

    @Label("Invalidations")
    @Description("Cache invalidations on this node so far")
    public long invalidations;

    /** Node {@code node}'s counter; the periodic hook is registered once per JVM. */
    public static void addSource(int node, LongSupplier invalidations) {
        SOURCES.put(node, invalidations);
        if (REGISTERED.add(SingleVmInvalidationsEvent.class)) {
            try {
                FlightRecorder.addPeriodicEvent(SingleVmInvalidationsEvent.class, SingleVmInvalidationsEvent::emitAll);
            } catch (RuntimeException | Error e) {
                // no Flight Recorder in this JVM: the counters are simply not recorded
            }
        }
    }

    public static void removeSource(int node) {
        SOURCES.remove(node);
    }

    private static void emitAll() {
        SOURCES.forEach((node, counter) -> {
            SingleVmInvalidationsEvent e = new SingleVmInvalidationsEvent();
            e.node = node;
            e.invalidations = counter.getAsLong();
            e.commit();
        });
    }
}
