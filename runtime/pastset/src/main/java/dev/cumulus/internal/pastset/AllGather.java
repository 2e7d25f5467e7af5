package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.pastset.Semantics;

import java.util.Arrays;
import java.util.List;

/**
 * Built-in all-gather ({@code Semantics.allGather(n)}, PastSet §5.2): tuples start with an {@code int} rank in
 * {@code 0..n-1}; once every rank contributed to a round, one tuple of {@code n} fields is appended, field {@code r}
 * holding rank {@code r}'s contribution (its second field, or an {@code Object[]} of its other fields when it has
 * several); every caller observes each round's tuple once. Public only to be loadable by name.
 */
public final class AllGather implements Semantics.Redefinition {
    private int n;
    private Object[] parts;
    private int count;
    private RoundCursor rounds;

    public AllGather() {
    }

    @Override
    public void init(Semantics.Context element, List<String> params) {
        n = Integer.parseInt(params.getFirst());
        var t = element.template();
        if (t != null && (t.arity() < 2 || (t.types().getFirst() != int.class && t.types().getFirst() != Integer.class))) {
            throw new CumulusException("allGather(" + n + ") needs a template that starts with an int rank followed by"
                + " the contribution, e.g. Template.of(\"bodies\", int.class, double[].class), not " + t.key());
        }
        parts = new Object[n];
        rounds = new RoundCursor(n);
    }

    @Override
    public long move(Semantics.Context element, Semantics.Caller caller, Object[] fields) {
        if (fields.length < 2 || !(fields[0] instanceof Integer rank)) {
            throw new CumulusException("allGather: a contribution is (int rank, value...), not "
                + Arrays.deepToString(fields));
        }
        if (rank < 0 || rank >= n) {
            throw new CumulusException("allGather(" + n + "): rank " + rank + " is outside 0.." + (n - 1));
        }
        if (parts[rank] != null) {
            throw new CumulusException("allGather(" + n + "): rank " + rank + " contributed twice to round "
                + rounds.completedRounds() + " (each rank moves once per round, then observes)");
        }
        parts[rank] = fields.length == 2 ? (fields[1] == null ? Nothing.NULL : fields[1])
            : Arrays.copyOfRange(fields, 1, fields.length);
        count++;
        if (count < n) {
            return -1;
        }
        Object[] result = new Object[n];
        for (int i = 0; i < n; i++) {
            result[i] = parts[i] == Nothing.NULL ? null : parts[i];
        }
        long index = element.append(result);
        Arrays.fill(parts, null);
        count = 0;
        rounds.completed(index);
        return index;
    }

    @Override
    public long observe(Semantics.Context element, Semantics.Caller caller) {
        return rounds.observe(element, caller);
    }

    /** Marks a contributed null. */
    private enum Nothing { NULL }
}
