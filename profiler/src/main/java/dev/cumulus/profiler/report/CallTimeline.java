package dev.cumulus.profiler.report;

import dev.cumulus.profiler.figures.RuntimeObjects;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Remote calls with both ends: the caller's {@code dev.cumulus.RemoteCall} (send to reply) joined by caller node and
 * call id to the serving node's {@code dev.cumulus.RemoteCallServed} (method start to reply sent). The difference is
 * the time the call spent on the way, queued at the target, or waiting for its object's gate. Keeps at most
 * {@link #MAX_CALLS} calls of each side (the earliest), so a long run's report stays small. Not thread-safe.
 */
public final class CallTimeline {
    /** Most calls kept per side. */
    public static final int MAX_CALLS = 50_000;

    /**
     * One end of a call; times in ns since the epoch. {@code deferred}: a serving end whose method handed its reply
     * to another thread, so the span ends when the method returned, before the reply.
     */
    public record Span(int callerNode, int targetNode, long callId, String object, String method, long startNs,
                       long endNs, String outcome, boolean deferred) {
        public long durationNs() {
            return endNs - startNs;
        }
    }

    /** A caller's call and, when recorded, its serving end (else null). */
    public record Call(Span caller, Span served) {
        /** Time not spent running the method: on the way both ways, queued, held at the object's gate. */
        public long outsideNs() {
            return served == null ? caller.durationNs() : Math.max(0, caller.durationNs() - served.durationNs());
        }

        public boolean internal() {
            return RuntimeObjects.isInternal("remote", caller.object());
        }
    }

    private final List<Span> callers = new ArrayList<>();
    private final Map<Long, Span> served = new HashMap<>();
    private boolean truncated;

    void addCaller(Span s) {
        if (s.callId() == 0) {
            return; // a recording from before calls carried ids
        }
        if (callers.size() < MAX_CALLS) {
            callers.add(s);
        } else {
            truncated = true;
        }
    }

    void addServed(Span s) {
        if (served.size() < MAX_CALLS) {
            served.put(key(s.callerNode(), s.callId()), s);
        } else {
            truncated = true;
        }
    }

    private static long key(int callerNode, long callId) {
        return ((long) callerNode << 48) ^ callId;
    }

    /** Whether calls were left out (more than {@link #MAX_CALLS} on a side). */
    public boolean truncated() { return truncated; }

    /** Every kept call with its serving end where one was recorded, in order of start. */
    public List<Call> calls() {
        List<Call> out = new ArrayList<>(callers.size());
        for (Span c : callers) {
            Span s = served.get(key(c.callerNode(), c.callId()));
            out.add(new Call(c, s));
        }
        out.sort(Comparator.comparingLong((Call c) -> c.caller().startNs()));
        return out;
    }

    /** Calls with both ends recorded. */
    public long linked() {
        return calls().stream().filter(c -> c.served() != null).count();
    }

    /**
     * The calls to show on a timeline: those overlapping the window around the slowest linked call of the program's
     * objects (of any object when the program made none), at most {@code limit}, in order of start. Empty when no
     * call has both ends.
     */
    public List<Call> window(int limit) {
        List<Call> all = calls();
        Call slowest = all.stream().filter(c -> c.served() != null && !c.internal())
            .max(Comparator.comparingLong(c -> c.caller().durationNs()))
            .orElse(all.stream().filter(c -> c.served() != null)
                .max(Comparator.comparingLong(c -> c.caller().durationNs())).orElse(null));
        if (slowest == null) {
            return List.of();
        }
        long d = Math.max(1, slowest.caller().durationNs());
        long from = slowest.caller().startNs() - d / 2;
        long to = slowest.caller().endNs() + d / 2;
        List<Call> out = new ArrayList<>();
        out.add(slowest);
        for (Call c : all) {
            if (out.size() >= limit) {
                break;
            }
            if (c != slowest && c.served() != null && c.caller().endNs() >= from && c.caller().startNs() <= to) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparingLong((Call c) -> c.caller().startNs()));
        return out;
    }
}
