package dev.cumulus.profiler;

import java.util.Arrays;

/** A growable list of longs (latencies, timestamps) with nearest-rank percentiles. Not thread-safe. */
public final class LongList {
    private long[] values = new long[16];
    private int size;
    private boolean sorted = true;

    public void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        if (size > 0 && v < values[size - 1]) {
            sorted = false;
        }
        values[size++] = v;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public long get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return values[i];
    }

    public void clear() {
        size = 0;
        sorted = true;
    }

    /** A copy of the values in insertion order. */
    public long[] toArray() {
        return Arrays.copyOf(values, size);
    }

    /** Nearest-rank percentile ({@code p} in 0..100) of the values, 0 when empty. */
    public long percentile(double p) {
        if (size == 0) {
            return 0;
        }
        long[] s = values;
        if (!sorted) {
            s = Arrays.copyOf(values, size);
            Arrays.sort(s);
        }
        return percentileOfSorted(s, size, p);
    }

    /** Nearest-rank percentile of the first {@code n} values of a sorted array. */
    public static long percentileOfSorted(long[] sortedValues, int n, double p) {
        if (n == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * n);
        return sortedValues[Math.max(0, Math.min(n - 1, rank - 1))];
    }

    public long sum() {
        long s = 0;
        for (int i = 0; i < size; i++) {
            s += values[i];
        }
        return s;
    }
}
