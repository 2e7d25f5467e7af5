package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.pastset.Semantics;

import java.util.List;

/**
 * Built-in global reduction ({@code Semantics.sum/min/max(n)}): each round takes {@code n} contributions of one
 * numeric field ({@code int}, {@code long}, {@code double} or an array of those, combined element by element),
 * appends the round's result, and lets every caller observe each round's result once. Loaded by name like any
 * user redefinition; public for that reason only.
 */
public final class Reduction implements Semantics.Redefinition {
    private String op;
    private int n;
    private Object acc;
    private int count;
    private RoundCursor rounds;

    public Reduction() {
    }

    @Override
    public void init(Semantics.Context element, List<String> params) {
        if (params.size() != 2) {
            throw new CumulusException("Reduction takes (op, n), not " + params);
        }
        op = params.get(0);
        if (!List.of("sum", "min", "max").contains(op)) {
            throw new CumulusException("unknown reduction '" + op + "'; use sum, min or max");
        }
        n = Integer.parseInt(params.get(1));
        if (element.template() != null && element.template().arity() != 1) {
            throw new CumulusException(op + "(" + n + ") reduces tuples of one numeric field, but the template is "
                + element.template().key());
        }
        rounds = new RoundCursor(n);
    }

    @Override
    public long move(Semantics.Context element, Semantics.Caller caller, Object[] fields) {
        if (fields.length != 1) {
            throw new CumulusException(op + " takes tuples of one field, not " + fields.length);
        }
        acc = count == 0 ? copy(fields[0]) : combine(acc, fields[0]);
        count++;
        if (count < n) {
            return -1;
        }
        long index = element.append(acc);
        acc = null;
        count = 0;
        rounds.completed(index);
        return index;
    }

    @Override
    public long observe(Semantics.Context element, Semantics.Caller caller) {
        return rounds.observe(element, caller);
    }

    private static Object copy(Object v) {
        return switch (v) {
            case double[] a -> a.clone();
            case long[] a -> a.clone();
            case int[] a -> a.clone();
            case Double d -> d;
            case Long l -> l;
            case Integer i -> i;
            case null, default -> throw new CumulusException("a reduction takes int, long, double or arrays of those,"
                + " not " + (v == null ? "null" : v.getClass().getTypeName()));
        };
    }

    private Object combine(Object a, Object b) {
        if (a.getClass() != b.getClass()) {
            throw new CumulusException(op + ": contributions of one round must have one type, got "
                + a.getClass().getTypeName() + " and " + b.getClass().getTypeName());
        }
        switch (a) {
            case Double x -> {
                return apply(x, (Double) b);
            }
            case Long x -> {
                return apply(x, (Long) b);
            }
            case Integer x -> {
                return (int) apply((long) x, (long) (Integer) b);
            }
            case double[] x -> {
                double[] y = (double[]) b;
                sameLength(x.length, y.length);
                for (int i = 0; i < x.length; i++) {
                    x[i] = apply(x[i], y[i]);
                }
                return x;
            }
            case long[] x -> {
                long[] y = (long[]) b;
                sameLength(x.length, y.length);
                for (int i = 0; i < x.length; i++) {
                    x[i] = apply(x[i], y[i]);
                }
                return x;
            }
            case int[] x -> {
                int[] y = (int[]) b;
                sameLength(x.length, y.length);
                for (int i = 0; i < x.length; i++) {
                    x[i] = (int) apply((long) x[i], (long) y[i]);
                }
                return x;
            }
            default -> throw new CumulusException(op + " cannot combine " + a.getClass().getTypeName());
        }
    }

    private void sameLength(int a, int b) {
        if (a != b) {
            throw new CumulusException(op + ": array contributions of one round must have one length, got " + a
                + " and " + b);
        }
    }

    private double apply(double a, double b) {
        return switch (op) {
            case "sum" -> a + b;
            case "min" -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }

    private long apply(long a, long b) {
        return switch (op) {
            case "sum" -> a + b;
            case "min" -> Math.min(a, b);
            default -> Math.max(a, b);
        };
    }
}
