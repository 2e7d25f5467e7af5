package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * This node's copies of arrays (and of plain {@code new Object()}s) homed elsewhere, by the identity of the local
 * copy: what a woven array access asks on every load and store once the node holds any such copy, so a lookup takes no
 * lock. An open-addressing table of the copies' identities, only ever added to (copies are never evicted): a reader
 * probes the table it loads (volatile); a writer stores a slot's copy record before its key (release, read with
 * acquire), and makes a bigger table when half full and publishes it whole. A copy is added before its reference is
 * handed to any program thread, so a thread that holds the reference finds it.
 */
final class CopyTable {
    private static final int INITIAL = 64;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle BITS = MethodHandles.arrayElementVarHandle(long[].class);
    /**
     * One bit per residue of an identity hash code (the low 16 bits), set for every copy of every table of this JVM:
     * a clear bit proves an array is no copy with one load, so an access to one of the node's own arrays pays no probe.
     */
    private static final long[] FILTER = new long[1 << 10];

    /** Keys at even indexes, their {@link Copy} at the odd index after; {@code null} key: free. */
    private volatile Object[] table = new Object[2 * INITIAL];
    private int size;

    /** The copy record whose copy is {@code a}, or {@code null} if {@code a} is not a copy (a master, or private). */
    Copy get(Object a) {
        Object[] t = table;
        int mask = (t.length >>> 1) - 1;
        for (int i = System.identityHashCode(a) & mask; ; i = (i + 1) & mask) {
            Object k = SLOT.getAcquire(t, 2 * i);
            if (k == a) {
                return (Copy) t[2 * i + 1];
            }
            if (k == null) {
                return null;
            }
        }
    }

    /**
     * False when {@code a} is certainly no copy of any table (its filter bit is clear): one identity hash and one load.
     * A copy's bit is set before the copy is added, so a thread that holds its reference sees the bit.
     */
    static boolean mayHold(Object a) {
        int h = System.identityHashCode(a);
        return ((long) BITS.getAcquire(FILTER, (h >>> 6) & (FILTER.length - 1)) & (1L << h)) != 0;
    }

    /** Adds {@code c} under the identity of its copy, {@code c.target}. */
    synchronized void add(Copy c) {
        int h = System.identityHashCode(c.target);
        BITS.getAndBitwiseOr(FILTER, (h >>> 6) & (FILTER.length - 1), 1L << h);
        Object[] t = table;
        if (2 * (size + 1) > t.length >>> 1) {
            Object[] bigger = new Object[2 * t.length];
            for (int i = 0; i < t.length; i += 2) {
                if (t[i] != null) {
                    put(bigger, t[i], t[i + 1]);
                }
            }
            put(bigger, c.target, c);
            size++;
            table = bigger;
            return;
        }
        put(t, c.target, c);
        size++;
    }

    private static void put(Object[] t, Object key, Object value) {
        int mask = (t.length >>> 1) - 1;
        int i = System.identityHashCode(key) & mask;
        while (t[2 * i] != null) {
            i = (i + 1) & mask;
        }
        t[2 * i + 1] = value;
        SLOT.setRelease(t, 2 * i, key);
    }
}
