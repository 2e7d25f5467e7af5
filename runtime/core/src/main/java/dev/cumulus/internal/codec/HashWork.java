package dev.cumulus.internal.codec;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.agrona.collections.Int2IntHashMap;

/**
 * The cost model of putting decoded values into sets and maps, so that the {@link DecodeBudget} is charged before a
 * {@code hashCode}, {@code equals} or {@code compareTo} runs.
 *
 * <p>A value's <em>structural cost</em> is the number of values its structural hash visits: 1 for a leaf (a boxed
 * primitive, a string, an enum, an array, a {@code @Transferable} object that keeps {@code Object}'s identity hash);
 * 1 plus its elements' (components', fields') costs for a collection, map, optional, record or a
 * {@code @Transferable} object that overrides {@code hashCode}. The reader computes it as it decodes (shared values
 * count once per path, as a hash visits them), saturating at {@link #SATURATED}. A value that refers to an object
 * still being decoded (a cycle) has cost {@link #UNKNOWN}; it is {@linkplain #measure measured} on the decoded graph
 * when it is hashed.
 *
 * <p>One instance per hash-based collection being filled: it counts keys per hash code, because a key whose hash
 * code {@code k} keys already share costs {@code k} more {@code equals} calls. Each such call is charged
 * {@link #EQUALS_WEIGHT} times the key's structural cost: an {@code equals} dispatches and compares where a hash step
 * only visits, and a set of keys with one hash code must be refused within a few milliseconds, not after the
 * tens of millions of calls the unweighted budget would allow (50,000 records with one hash code: about 16 M calls,
 * 40–100 ms, unweighted; about 2 M, 5–15 ms, weighted).
 */
final class HashWork {
    static final long UNKNOWN = -1;
    static final long SATURATED = Long.MAX_VALUE / 4;
    /** Work units charged per structural step of an {@code equals} call between colliding keys. */
    static final long EQUALS_WEIGHT = 8;

    private final DecodeBudget budget;
    private final Int2IntHashMap keysPerHash = new Int2IntHashMap(0);

    HashWork(DecodeBudget budget) {
        this.budget = budget;
    }

    /**
     * Charges hashing {@code key} (structural cost {@code cost}) and the {@code equals} calls of its collisions,
     * then computes its hash code; a key too costly is refused before its hash code runs.
     *
     * @return the key's hash code
     */
    int charge(Object key, long cost, int maxDepth, int position) {
        long steps = cost >= 0 ? cost : measure(key, budget.workLeft(), maxDepth);
        budget.work(steps, position, "hashing a set element or map key (structural cost " + steps + ")");
        int hash = key == null ? 0 : key.hashCode();
        int same = keysPerHash.get(hash);
        if (same > 0) {
            long perCall = steps * EQUALS_WEIGHT;
            budget.work(same > SATURATED / perCall ? SATURATED : same * perCall, position,
                "a set element or map key whose hash code " + same + " others share");
        }
        keysPerHash.put(hash, same + 1);
        return hash;
    }

    /** Charges inserting a key of structural cost {@code cost} into a sorted set or map that holds {@code size}. */
    static void chargeSorted(DecodeBudget budget, Object key, long cost, int size, int maxDepth, int position) {
        long steps = cost >= 0 ? cost : measure(key, budget.workLeft(), maxDepth);
        long compares = 1 + (32 - Integer.numberOfLeadingZeros(size));
        budget.work(steps > SATURATED / compares ? SATURATED : steps * compares, position,
            "comparing a sorted set element or map key");
    }

    /**
     * Charges the linear probing of an immutable set or map ({@code Set.of}, {@code Map.copyOf}) built from keys with
     * these hash codes and costs: it tries slot {@code floorMod(hash, 2n)} and the ones after it, calling
     * {@code equals} on every occupied one, so clustered hash codes cost quadratic work even when they differ.
     */
    static void chargeProbing(DecodeBudget budget, int[] hashes, long[] costs, int count, int position) {
        int slots = Math.max(2, 2 * count);
        boolean[] used = new boolean[slots];
        for (int i = 0; i < count; i++) {
            int slot = Math.floorMod(hashes[i], slots);
            long step = Math.max(1, costs[i]);
            while (used[slot]) {
                budget.work(step, position, "probing for a free slot of an immutable set or map");
                slot = slot + 1 == slots ? 0 : slot + 1;
            }
            used[slot] = true;
        }
    }

    /**
     * The structural cost of a decoded value, counted by walking it; stops (returning a cost above {@code limit})
     * once the count passes {@code limit} or the walk is deeper than {@code maxDepth} (a cycle its hash would never
     * leave).
     */
    static long measure(Object root, long limit, int maxDepth) {
        long count = 0;
        ArrayDeque<Iterator<?>> stack = new ArrayDeque<>();
        Object next = root;
        while (true) {
            if (next != null || stack.isEmpty()) {
                if (++count > limit) {
                    return count;
                }
                Iterator<?> children = children(next);
                if (children != null) {
                    if (stack.size() >= maxDepth) {
                        return limit + 1;
                    }
                    stack.push(children);
                }
            }
            next = null;
            while (!stack.isEmpty() && !stack.peek().hasNext()) {
                stack.pop();
            }
            if (stack.isEmpty()) {
                return count;
            }
            next = stack.peek().next();
        }
    }

    /** The values a structural hash of {@code value} visits, or null for a leaf. */
    private static Iterator<?> children(Object value) {
        if (value == null) {
            return null;
        }
        TypeInfo info = TypeInfo.of(value.getClass());
        return switch (info.kind) {
            case COLLECTION, SORTED_SET, FIXED_SIZE_LIST, IMMUTABLE_COLLECTION -> ((Collection<?>) value).iterator();
            case MAP, SORTED_MAP, IMMUTABLE_MAP -> entries((Map<?, ?>) value);
            case OPTIONAL -> ((Optional<?>) value).stream().iterator();
            case RECORD -> fields(info, value);
            case OBJECT -> info.identityHash ? null : fields(info, value);
            default -> null;
        };
    }

    private static Iterator<?> entries(Map<?, ?> map) {
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        return new Iterator<>() {
            private Object pendingValue;
            private boolean hasPending;

            @Override
            public boolean hasNext() {
                return hasPending || entries.hasNext();
            }

            @Override
            public Object next() {
                if (hasPending) {
                    hasPending = false;
                    return pendingValue;
                }
                Map.Entry<?, ?> entry = entries.next();
                pendingValue = entry.getValue();
                hasPending = true;
                return entry.getKey();
            }
        };
    }

    private static Iterator<?> fields(TypeInfo info, Object value) {
        TypeInfo.Slot[] slots = info.slots;
        Object[] values = new Object[slots.length];
        for (int i = 0; i < slots.length; i++) {
            Field field = slots[i].field();
            try {
                values[i] = slots[i].code() == 'L' ? field.get(value) : null;
            } catch (IllegalAccessException e) {
                values[i] = null;
            }
        }
        return java.util.Arrays.asList(values).iterator();
    }
}
