package dev.cumulus.it;

import dev.cumulus.Cloud;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** A cloud with several kinds of writes, whose state hash shows whether replicas diverged. */
public class Journal implements Cloud.Root {
    private final List<String> entries = new ArrayList<>();
    private final TreeMap<Integer, Integer> counts = new TreeMap<>();
    private long checksum = 17;
    private Entry last;

    public static class Entry implements Cloud.Node {
        final int origin;
        final Entry previous;

        Entry(int origin, Entry previous) {
            this.origin = origin;
            this.previous = previous;
        }
    }

    public synchronized int append(int origin, String text) {
        entries.add(origin + ":" + text);
        counts.merge(origin, 1, Integer::sum);
        checksum = checksum * 31 + text.hashCode() + origin;
        last = new Entry(origin, last);
        return entries.size();
    }

    public synchronized void fail(String why) {
        checksum = checksum * 7;
        throw new IllegalArgumentException(why);
    }

    public synchronized long stateHash() {
        long h = checksum;
        for (String e : entries) {
            h = h * 131 + e.hashCode();
        }
        int chain = 0;
        for (Entry e = last; e != null; e = e.previous) {
            chain = chain * 17 + e.origin;
        }
        return h * 31 + counts.hashCode() + chain;
    }

    public synchronized int size() {
        return entries.size();
    }

    public synchronized int countOf(int origin) {
        return counts.getOrDefault(origin, 0);
    }
}
