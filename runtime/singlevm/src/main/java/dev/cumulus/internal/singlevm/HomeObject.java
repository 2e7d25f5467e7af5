package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The master copy of one shared object on its home node: its slots (long bits of longs, doubles and references),
 * which of them are final, and its monitor, made when first used. Threads of the home node read and write the slots
 * directly; other nodes fetch blocks of them and write dirty slots back; volatile slots are read and written here
 * only, with volatile semantics.
 */
final class HomeObject {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final long[] NO_FINALS = new long[0];
    private static final long[] NO_SLOTS = new long[0];

    final long id;
    private final long[] slots;
    private final long[] finals;
    private volatile HomeMonitor monitor;

    HomeObject(long id, int length, long[] finals) {
        this.id = id;
        this.slots = new long[length];
        this.finals = finals == null || finals.length == 0 ? NO_FINALS : finals.clone();
    }

    int length() {
        return slots.length;
    }

    long get(int slot) {
        return slots[slot];
    }

    void put(int slot, long value) {
        slots[slot] = value;
    }

    long getVolatile(int slot) {
        return (long) SLOTS.getVolatile(slots, slot);
    }

    void putVolatile(int slot, long value) {
        SLOTS.setVolatile(slots, slot, value);
    }

    /** Block {@code block} of {@code blockSlots} slots (none past the end), with the object's length and finals. */
    Block block(int block, int blockSlots) {
        long from = (long) block * blockSlots;
        if (block < 0 || from >= slots.length) {
            return new Block(slots.length, finals, NO_SLOTS); // the caller learns the length and reports the index
        }
        int to = (int) Math.min(slots.length, from + blockSlots);
        return new Block(slots.length, finals, Arrays.copyOfRange(slots, (int) from, to));
    }

    /** This object's monitor if it was ever used, else null. */
    HomeMonitor monitorIfUsed() {
        return monitor;
    }

    /** This object's monitor, made on first use. */
    HomeMonitor monitor() {
        HomeMonitor m = monitor;
        if (m == null) {
            synchronized (this) {
                m = monitor;
                if (m == null) {
                    m = new HomeMonitor(id);
                    monitor = m;
                }
            }
        }
        return m;
    }
}
