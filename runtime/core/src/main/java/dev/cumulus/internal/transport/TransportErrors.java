package dev.cumulus.internal.transport;

import org.agrona.concurrent.NanoClock;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The transport's error log, distinct and rate-limited (as Aeron's own distinct error log): an error is keyed by its
 * kind (an exception's class and where it was thrown, or a named kind such as a dropped message), printed in full the
 * first time, then counted; repeats are printed as one line with their count at most once per interval. So one bad
 * frame repeated a hundred thousand times costs a counter, not a hundred thousand lines. At most
 * {@link #MAX_DISTINCT} kinds are kept apart; later ones share one key. Any thread (synchronized; errors are rare);
 * time comes from the injected clock.
 */
final class TransportErrors {
    static final int MAX_DISTINCT = 256;
    static final long DEFAULT_INTERVAL_NS = 10_000_000_000L;
    /** Stack frames that tell one exception's kind from another's. */
    static final int KEY_FRAMES = 4;

    private final String prefix;
    private final NanoClock clock;
    private final long intervalNs;
    private final Consumer<String> out;
    private final Map<String, Entry> entries = new HashMap<>();
    private long total;

    private static final class Entry {
        final String firstText;
        long count;
        long unprinted;
        long lastPrintedNs;

        Entry(String firstText) {
            this.firstText = firstText;
        }
    }

    /**
     * @param prefix     starts every line, e.g. {@code "cumulus: node 2 transport: "}
     * @param intervalNs repeats of one kind are printed at most once per interval
     * @param out        where lines go (System.err in a node)
     */
    TransportErrors(String prefix, NanoClock clock, long intervalNs, Consumer<String> out) {
        this.prefix = prefix;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.out = out;
    }

    /**
     * Reports an exception. Its kind is its class and where it was thrown (the top {@link #KEY_FRAMES} frames), not its
     * message, which often carries the varying index or length of each bad frame (as Aeron's distinct error log keys
     * by stack trace).
     */
    void report(Throwable error) {
        StackTraceElement[] frames = error.getStackTrace();
        StringBuilder key = new StringBuilder(error.getClass().getName());
        for (int i = 0; i < Math.min(KEY_FRAMES, frames.length); i++) {
            key.append(" at ").append(frames[i]);
        }
        report(key.toString(), "error: " + error + (frames.length > 0 ? " at " + frames[0] : ""));
    }

    /** Reports an event of a named kind; {@code text} is printed the first time and with each count. */
    synchronized void report(String kind, String text) {
        total++;
        Entry entry = entries.get(kind);
        if (entry == null) {
            if (entries.size() >= MAX_DISTINCT) {
                kind = "(other kinds)";
                entry = entries.get(kind);
            }
            if (entry == null) {
                entry = new Entry(text);
                entries.put(kind, entry);
                entry.count = 1;
                entry.lastPrintedNs = clock.nanoTime();
                out.accept(prefix + text);
                return;
            }
        }
        entry.count++;
        entry.unprinted++;
        long now = clock.nanoTime();
        if (now - entry.lastPrintedNs >= intervalNs) {
            printRepeats(entry, now);
        }
    }

    /** Prints the repeats not printed yet (at close, so no count is lost). */
    synchronized void flush() {
        long now = clock.nanoTime();
        for (Entry entry : entries.values()) {
            if (entry.unprinted > 0) {
                printRepeats(entry, now);
            }
        }
    }

    private void printRepeats(Entry entry, long now) {
        out.accept(prefix + entry.firstText + " (repeated " + entry.unprinted + " more times in the last "
            + Math.max(1, (now - entry.lastPrintedNs) / 1_000_000) + " ms; " + entry.count + " in all)");
        entry.unprinted = 0;
        entry.lastPrintedNs = now;
    }

    /** Reports so far, of every kind. */
    synchronized long total() {
        return total;
    }

    /** Reports so far of one kind. */
    synchronized long count(String kind) {
        Entry entry = entries.get(kind);
        return entry == null ? 0 : entry.count;
    }

    /** Kinds seen so far. */
    synchronized int distinct() {
        return entries.size();
    }
}
