package dev.cumulus.profiler.report;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the JDK's own events of one node's recording say (the events {@code cumulus run --profile} enables with the
 * JDK's default settings): where the CPU went ({@code jdk.ExecutionSample}, a {@link StackTree}), what was allocated
 * and where ({@code jdk.ObjectAllocationSample}, weighted by the bytes each sample stands for), garbage collections
 * ({@code jdk.GarbageCollection}, {@code jdk.GCHeapSummary}) and where threads parked ({@code jdk.ThreadPark}). Not
 * thread-safe.
 */
public final class JvmStats {
    /** Event names read. */
    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    public static final String ALLOCATION_SAMPLE = "jdk.ObjectAllocationSample";
    public static final String GARBAGE_COLLECTION = "jdk.GarbageCollection";
    public static final String HEAP_SUMMARY = "jdk.GCHeapSummary";
    public static final String THREAD_PARK = "jdk.ThreadPark";

    /** A name with an amount (samples, bytes, nanoseconds) and a count. */
    public record Entry(String name, long amount, long count) {
    }

    private final StackTree samples = new StackTree("all");
    private final Map<String, long[]> allocatedByClass = new HashMap<>();
    private final Map<String, long[]> allocatedBySite = new HashMap<>();
    private long allocatedBytes;
    private long collections;
    private long pauseNs;
    private long longestPauseNs;
    private long maxHeapAfterGcBytes;
    private final Map<String, long[]> parkedBySite = new HashMap<>();
    private long parks;
    private long parkedNs;

    /** Whether {@code e} is one of the JDK events read here. */
    public static boolean reads(String eventName) {
        return switch (eventName) {
            case EXECUTION_SAMPLE, ALLOCATION_SAMPLE, GARBAGE_COLLECTION, HEAP_SUMMARY, THREAD_PARK -> true;
            default -> false;
        };
    }

    /** Adds one JDK event (others are ignored). */
    public void accept(RecordedEvent e) {
        switch (e.getEventType().getName()) {
            case EXECUTION_SAMPLE -> {
                List<String> frames = framesRootFirst(e.getStackTrace());
                if (!frames.isEmpty()) {
                    samples.add(frames);
                }
            }
            case ALLOCATION_SAMPLE -> {
                long weight = e.getLong("weight");
                RecordedClass c = e.getClass("objectClass");
                allocatedBytes += weight;
                add(allocatedByClass, c == null ? "?" : typeName(c.getName()), weight);
                add(allocatedBySite, site(e.getStackTrace()), weight);
            }
            case GARBAGE_COLLECTION -> {
                collections++;
                pauseNs += nanos(e, "sumOfPauses");
                longestPauseNs = Math.max(longestPauseNs, nanos(e, "longestPause"));
            }
            case HEAP_SUMMARY -> {
                if ("After GC".equals(e.getString("when"))) {
                    maxHeapAfterGcBytes = Math.max(maxHeapAfterGcBytes, e.getLong("heapUsed"));
                }
            }
            case THREAD_PARK -> {
                parks++;
                long d = e.getDuration().toNanos();
                parkedNs += d;
                add(parkedBySite, site(e.getStackTrace()), d);
            }
            default -> {
            }
        }
    }

    /** CPU samples as a tree (root "all"). */
    public StackTree samples() { return samples; }
    /** Sampled bytes allocated (each sample weighs the bytes it stands for). */
    public long allocatedBytes() { return allocatedBytes; }
    public long collections() { return collections; }
    /** Sum of all GC pauses. */
    public long pauseNs() { return pauseNs; }
    public long longestPauseNs() { return longestPauseNs; }
    /** Largest heap in use right after a collection (0 when none was recorded). */
    public long maxHeapAfterGcBytes() { return maxHeapAfterGcBytes; }
    /** Thread parks longer than the recording's threshold. */
    public long parks() { return parks; }
    public long parkedNs() { return parkedNs; }

    /** Whether any JDK event was read. */
    public boolean isEmpty() {
        return samples.total() == 0 && allocatedBytes == 0 && collections == 0 && parks == 0;
    }

    /** Methods that were running in the most samples (self samples), most first. */
    public List<Entry> hotMethods(int limit) {
        List<Entry> out = new ArrayList<>();
        samples.selfByFrame().forEach((m, n) -> out.add(new Entry(m, n, n)));
        return top(out, limit);
    }

    /** Allocated types by bytes, most first. */
    public List<Entry> allocationsByClass(int limit) {
        return top(entries(allocatedByClass), limit);
    }

    /** Allocation sites (the first frame outside the JDK) by bytes, most first. */
    public List<Entry> allocationsBySite(int limit) {
        return top(entries(allocatedBySite), limit);
    }

    /** Park sites (the first frame outside the JDK) by time parked, most first. */
    public List<Entry> parksBySite(int limit) {
        return top(entries(parkedBySite), limit);
    }

    private static List<Entry> entries(Map<String, long[]> m) {
        List<Entry> out = new ArrayList<>();
        m.forEach((k, v) -> out.add(new Entry(k, v[0], v[1])));
        return out;
    }

    private static List<Entry> top(List<Entry> list, int limit) {
        list.sort(Comparator.comparingLong(Entry::amount).reversed().thenComparing(Entry::name));
        return list.size() > limit ? List.copyOf(list.subList(0, limit)) : list;
    }

    private static void add(Map<String, long[]> m, String key, long amount) {
        long[] v = m.computeIfAbsent(key, k -> new long[2]);
        v[0] += amount;
        v[1]++;
    }

    private static long nanos(RecordedEvent e, String field) {
        if (!e.hasField(field)) {
            return 0;
        }
        Duration d = e.getDuration(field);
        return d == null || d.isNegative() ? 0 : d.toNanos();
    }

    /** {@code Class.method} of every frame, the outermost first. */
    static List<String> framesRootFirst(RecordedStackTrace st) {
        if (st == null) {
            return List.of();
        }
        List<RecordedFrame> frames = st.getFrames();
        List<String> out = new ArrayList<>(frames.size() + 1);
        if (st.isTruncated()) {
            out.add("(truncated stack)");
        }
        for (int i = frames.size() - 1; i >= 0; i--) {
            out.add(name(frames.get(i)));
        }
        return out;
    }

    /** The innermost frame outside the JDK ({@link #isJdk}), else the innermost frame. */
    static String site(RecordedStackTrace st) {
        if (st == null || st.getFrames().isEmpty()) {
            return "(no stack trace)";
        }
        for (RecordedFrame f : st.getFrames()) {
            RecordedMethod m = f.getMethod();
            String type = m == null || m.getType() == null ? "" : m.getType().getName();
            if (!isJdk(type)) {
                return name(f);
            }
        }
        return name(st.getFrames().getFirst());
    }

    /** Whether a type (or a frame named by its type) is the JDK's. */
    static boolean isJdk(String typeOrFrame) {
        return typeOrFrame.startsWith("java.") || typeOrFrame.startsWith("javax.") || typeOrFrame.startsWith("jdk.")
            || typeOrFrame.startsWith("sun.") || typeOrFrame.startsWith("com.sun.");
    }

    private static String name(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        if (m == null) {
            return "?";
        }
        return (m.getType() == null ? "?" : m.getType().getName()) + "." + m.getName();
    }

    /** A JVM type name as Java writes it: {@code [B} → {@code byte[]}, {@code [Ljava.lang.String;} → String[]. */
    static String typeName(String jvm) {
        int dims = 0;
        while (dims < jvm.length() && jvm.charAt(dims) == '[') {
            dims++;
        }
        if (dims == 0) {
            return jvm;
        }
        String base = jvm.substring(dims);
        String elem = switch (base) {
            case "B" -> "byte";
            case "C" -> "char";
            case "D" -> "double";
            case "F" -> "float";
            case "I" -> "int";
            case "J" -> "long";
            case "S" -> "short";
            case "Z" -> "boolean";
            default -> base.startsWith("L") && base.endsWith(";") ? base.substring(1, base.length() - 1) : base;
        };
        return elem + "[]".repeat(dims);
    }
}
