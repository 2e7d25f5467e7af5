package dev.cumulus.internal.singlevm;

import java.lang.reflect.Array;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This node's copy of one shared thing homed elsewhere: a program object, an array, or a program class's statics
 * (homed on node 0). Holds its dirty bitmap (one bit per field or element) and the lock that writes, fills and
 * flush snapshots hold, so a write is either in a flush's snapshot or stays dirty, and a fill never overwrites one.
 * Its state ({@link Epochs}: never filled, or the epoch it was filled in) lives in the copy itself (an object's
 * {@code $cumulus$state}, a class's {@code $cumulus$statics}) or, for an array, in {@link #arrayState}.
 */
final class Copy {
    enum Kind { OBJECT, ARRAY, STATICS }

    final Kind kind;
    /** The object's id; {@code 0} for statics. */
    final long id;
    /** The copy (an object or an array), or the class whose statics these are. */
    final Object target;
    final ClassLayout layout;
    final int home;
    final ReentrantLock lock = new ReentrantLock();
    private final long[] dirty;
    private int dirtyCount;
    /** An array copy's state ({@link Epochs}); objects and statics keep theirs in a field. */
    volatile int arrayState = Epochs.NEVER_FILLED;
    /**
     * A large array's copy (longer than {@link #BLOCK} elements) is filled a block at a time: the state of each block
     * of {@code BLOCK} elements ({@link Epochs}); {@code null} for every other copy.
     */
    final AtomicIntegerArray blockStates;
    /**
     * Per block of a large array's copy (one entry for every other copy): how many entries of it a write-back made
     * clean. A fill compares it before and after its fetch: if it moved, the home may have answered before the
     * write-back reached it, and storing that answer in the now clean entries would undo this node's writes. Held under
     * {@link #lock}.
     */
    private final int[] cleanings;
    /**
     * Of a copy that was this node's own original until the node published it to another home
     * (docs/design/SINGLEVM.md, "Homed where first published"): per entry, the value its home last got from or gave
     * to this node. A woven access that still takes the object for this node's own (a {@code known} array) writes it
     * without a dirty bit; an entry that differs from its twin is such a write, as dirty as a marked one. An
     * {@code Object[]} of the entries' values, or for an array of a primitive type an array of that type (which every
     * flush compares a run at a time, {@link java.util.Arrays#mismatch}); {@code null} for every other copy. Held
     * under {@link #lock}.
     */
    private Object twin;
    /**
     * Per entry, the error a read of it gives when its home holds a JDK object this node cannot use (an object of a
     * mutable JDK class, of a program class extending a JDK class with state, or a JDK-made lambda): such an entry is
     * filled as {@code null} and remembered here, and the read that finds that {@code null} fails with this message
     * (docs/design/SINGLEVM.md, "JDK objects"), by entry; {@code null} while no entry ever was such a one (sparse: a
     * large array's copy has few, if any). Written under {@link #lock}; read without it by a thread that found
     * {@code null} in the entry.
     */
    private volatile java.util.Map<Integer, String> foreign;

    /** Elements per block of a large array's copy. */
    static final int BLOCK = 1024;

    Copy(Kind kind, long id, Object target, ClassLayout layout, int home, int length) {
        this.kind = kind;
        this.id = id;
        this.target = target;
        this.layout = layout;
        this.home = home;
        this.dirty = new long[(length + 63) >>> 6];
        if (kind == Kind.ARRAY && length > BLOCK) {
            blockStates = new AtomicIntegerArray((length + BLOCK - 1) / BLOCK);
            for (int b = 0; b < blockStates.length(); b++) {
                blockStates.set(b, Epochs.NEVER_FILLED);
            }
        } else {
            blockStates = null;
        }
        cleanings = new int[blockStates == null ? 1 : blockStates.length()];
    }

    boolean blocked() {
        return blockStates != null;
    }

    /** Whether any entry in {@code [from, to)} is dirty. */
    boolean anyDirty(int from, int to) {
        for (int i = from; i < to; i++) {
            if (isDirty(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Marks entry {@code i} written here; true if the copy had no dirty entry before. The value is this node's now, so
     * the entry is no longer foreign. Holds {@link #lock}.
     */
    boolean markDirty(int i) {
        setForeign(i, null);
        long bit = 1L << i;
        if ((dirty[i >>> 6] & bit) != 0) {
            return false;
        }
        dirty[i >>> 6] |= bit;
        return dirtyCount++ == 0;
    }

    /**
     * Remembers that entry {@code i} holds, at its home, a JDK object this node cannot use ({@code message}: what a
     * read of it says), or with {@code null} that it does not. Holds {@link #lock}.
     */
    void setForeign(int i, String message) {
        java.util.Map<Integer, String> f = foreign;
        if (message == null) {
            if (f != null) {
                f.remove(i);
            }
            return;
        }
        if (f == null) {
            f = new java.util.concurrent.ConcurrentHashMap<>();
            foreign = f;
        }
        f.put(i, message);
    }

    /**
     * The error a read of entry {@code i} gives ({@link #setForeign}), or {@code null} if its value is one this node
     * may use.
     */
    String foreign(int i) {
        java.util.Map<Integer, String> f = foreign;
        return f == null ? null : f.get(i);
    }

    /** The error a read of the first foreign entry among {@code [from, to)} gives, or {@code null} if none is. */
    String firstForeign(int from, int to) {
        java.util.Map<Integer, String> f = foreign;
        if (f == null || f.isEmpty()) {
            return null;
        }
        int first = Integer.MAX_VALUE;
        for (int i : f.keySet()) {
            if (i >= from && i < to && i < first) {
                first = i;
            }
        }
        return first == Integer.MAX_VALUE ? null : f.get(first);
    }

    boolean isDirty(int i) {
        return (dirty[i >>> 6] & (1L << i)) != 0;
    }

    /** Entry {@code i}'s value reached its home: clean now, one more cleaning of its block. Holds {@link #lock}. */
    void clearDirty(int i) {
        if (isDirty(i)) {
            dirty[i >>> 6] &= ~(1L << i);
            dirtyCount--;
            cleanings[blocked() ? i / BLOCK : 0]++;
        }
    }

    /**
     * How many entries of block {@code b} (0 for a copy not filled in blocks) a write-back has made clean so far. Holds
     * {@link #lock}.
     */
    int cleanings(int b) {
        return cleanings[b];
    }

    boolean anyDirty() {
        return dirtyCount > 0;
    }

    /**
     * Whether entry {@code i}, now holding {@code value}, is this node's write not yet at its home: marked dirty, or
     * different from its twin. Holds {@link #lock}.
     */
    boolean unsent(int i, Object value) {
        return isDirty(i) || twin != null && !same(value, twin instanceof Object[] t ? t[i] : Array.get(twin, i));
    }

    /** Makes {@code sent}, the value of each entry as a write-back sent it, this copy's twin. Holds {@link #lock}. */
    void twin(Object[] sent) {
        if (kind == Kind.ARRAY && target.getClass().getComponentType().isPrimitive()) {
            Object t = Array.newInstance(target.getClass().getComponentType(), sent.length);
            for (int i = 0; i < sent.length; i++) {
                Array.set(t, i, sent[i]);
            }
            twin = t;
        } else {
            twin = sent;
        }
    }

    /** Entry {@code i}'s value {@code v} reached its home or came from it: the twin's entry too. Holds {@link #lock}. */
    void twinEntry(int i, Object v) {
        if (twin instanceof Object[] t) {
            t[i] = v;
        } else if (twin != null) {
            Array.set(twin, i, v);
        }
    }

    /** Calls {@code changed} with every clean entry that differs from its twin. Holds {@link #lock}. */
    void forEachTwinDifference(java.util.function.IntConsumer changed) {
        if (twin instanceof Object[] t) {
            for (int i = 0; i < t.length; i++) {
                if (!isDirty(i) && !same(get(i), t[i])) {
                    changed.accept(i);
                }
            }
            return;
        }
        int n = Array.getLength(twin);
        for (int from = 0; from < n; ) {
            int m = mismatch(target, twin, from, n);
            if (m < 0) {
                return;
            }
            int i = from + m;
            if (!isDirty(i)) {
                changed.accept(i);
            }
            from = i + 1;
        }
    }

    /** {@link java.util.Arrays#mismatch} of two arrays of the same primitive type over {@code [from, to)}. */
    private static int mismatch(Object a, Object b, int from, int to) {
        return switch (a) {
            case long[] x -> java.util.Arrays.mismatch(x, from, to, (long[]) b, from, to);
            case int[] x -> java.util.Arrays.mismatch(x, from, to, (int[]) b, from, to);
            case double[] x -> java.util.Arrays.mismatch(x, from, to, (double[]) b, from, to);
            case float[] x -> java.util.Arrays.mismatch(x, from, to, (float[]) b, from, to);
            case short[] x -> java.util.Arrays.mismatch(x, from, to, (short[]) b, from, to);
            case char[] x -> java.util.Arrays.mismatch(x, from, to, (char[]) b, from, to);
            case byte[] x -> java.util.Arrays.mismatch(x, from, to, (byte[]) b, from, to);
            case boolean[] x -> java.util.Arrays.mismatch(x, from, to, (boolean[]) b, from, to);
            default -> throw new IllegalStateException("no primitive array: " + a.getClass().getName());
        };
    }

    /**
     * Equal as entry values: primitives, the JDK's immutable values and a program exception's state by value, shared
     * objects by identity.
     */
    static boolean same(Object a, Object b) {
        if (a == b) {
            return true;
        }
        return a != null && b != null && a.getClass() == b.getClass()
            && (a instanceof Number || a instanceof String || a instanceof Character || a instanceof Boolean
                || a instanceof ThrowableState)
            && a.equals(b);
    }

    void setState(int state) {
        switch (kind) {
            case OBJECT -> layout.state.setRelease(target, state);
            case ARRAY -> arrayState = state;
            case STATICS -> layout.state.setRelease(state);
        }
    }

    int state() {
        return switch (kind) {
            case OBJECT -> (int) layout.state.getAcquire(target);
            case ARRAY -> arrayState;
            case STATICS -> (int) layout.state.getAcquire();
        };
    }

    /** How many entries: an object's or a class's fields, or an array's elements (none for a plain object). */
    int length() {
        if (kind == Kind.ARRAY) {
            return target.getClass().isArray() ? Array.getLength(target) : 0;
        }
        return layout.size();
    }

    String className() {
        return kind == Kind.STATICS ? ((Class<?>) target).getName() : target.getClass().getName();
    }

    /** The declared type of entry {@code i}. */
    Class<?> typeOf(int i) {
        return kind == Kind.ARRAY ? target.getClass().getComponentType() : layout.typeOf(i);
    }

    /** Entry {@code i}'s value, a plain read. */
    Object get(int i) {
        return switch (kind) {
            case ARRAY -> Array.get(target, i);
            case OBJECT -> layout.get(target, i);
            case STATICS -> layout.handles[i].get();
        };
    }

    /** Stores {@code v} in entry {@code i}, a plain write. */
    void set(int i, Object v) {
        switch (kind) {
            case ARRAY -> Array.set(target, i, v);
            case OBJECT -> layout.set(target, i, v);
            case STATICS -> layout.handles[i].set(v);
        }
    }

    /** Entry {@code i} as an error message names it. */
    String where(int i) {
        return switch (kind) {
            case ARRAY -> "element " + i + " of " + describe();
            case OBJECT, STATICS -> "field " + layout.nameOf(i) + " of " + describe();
        };
    }

    String describe() {
        return switch (kind) {
            case OBJECT, ARRAY -> "shared " + target.getClass().getName() + " " + ObjectIds.describe(id);
            case STATICS -> "the static fields of " + ((Class<?>) target).getName();
        };
    }
}
