package conform;

/**
 * Records and sealed interfaces: an expression tree of records (program types as components) built by main, evaluated
 * and rewritten on other nodes with record deconstruction patterns in an exhaustive {@code switch}; the records'
 * generated {@code equals}, {@code hashCode} and {@code toString} on copies; a compact constructor's check.
 */
final class Records implements Conform.Case {
    sealed interface Expr permits Num, Add, Mul, Neg {
    }

    record Num(long value) implements Expr {
    }

    record Add(Expr left, Expr right) implements Expr {
    }

    record Mul(Expr left, Expr right) implements Expr {
    }

    record Neg(Expr inner) implements Expr {
    }

    record Range(int lo, int hi) {
        Range {
            if (lo > hi) {
                throw new IllegalArgumentException("lo " + lo + " > hi " + hi);
            }
        }

        int size() {
            return hi - lo;
        }
    }

    static long eval(Expr e) {
        return switch (e) {
            case Num n -> n.value();
            case Add(Expr l, Expr r) -> eval(l) + eval(r);
            case Mul(Num(long a), Num(long b)) -> a * b;
            case Mul(Expr l, Expr r) -> eval(l) * eval(r);
            case Neg(Neg(Expr inner)) -> eval(inner);
            case Neg(Expr inner) -> -eval(inner);
        };
    }

    static Expr simplify(Expr e) {
        return switch (e) {
            case Add(Num(long a), Num(long b)) -> new Num(a + b);
            case Add(Expr l, Expr r) -> new Add(simplify(l), simplify(r));
            case Mul(Expr l, Num(long one)) when one == 1 -> simplify(l);
            case Mul(Expr l, Expr r) -> new Mul(simplify(l), simplify(r));
            case Neg(Neg(Expr inner)) -> simplify(inner);
            case Neg(Expr inner) -> new Neg(simplify(inner));
            case Num n -> n;
        };
    }

    static final class Results {
        long value;
        Expr simplified;
        boolean equalToOriginal;
        int hash;
        String text;
        String rangeError;
        Range range;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Expr tree = new Add(new Mul(new Num(3), new Num(4)), new Neg(new Neg(new Mul(new Add(new Num(1),
            new Num(2)), new Num(1)))));
        Results[] rs = {new Results(), new Results()};
        Thread[] ts = new Thread[2];
        for (int k = 0; k < 2; k++) {
            Results r = rs[k];
            int me = k;
            ts[k] = new Thread(() -> {
                r.value = eval(tree);
                r.simplified = simplify(tree);
                r.equalToOriginal = r.simplified.equals(tree);
                r.hash = tree.hashCode();
                r.text = tree.toString();
                r.range = new Range(me, me + 5);
                try {
                    new Range(5, me);
                } catch (IllegalArgumentException e) {
                    r.rangeError = e.getMessage();
                }
            });
        }
        Conform.startJoin(ts);
        for (Results r : rs) {
            out.println(r.value + " " + r.simplified + " eq=" + r.equalToOriginal + " sameHash="
                + (r.hash == tree.hashCode()) + " text=" + r.text.equals(tree.toString()) + " " + r.rangeError
                + " " + r.range + " " + r.range.size() + " " + r.range.equals(new Range(r.range.lo(), r.range.hi()))
                + " " + eval(r.simplified));
        }
        out.println(rs[0].simplified.equals(rs[1].simplified) + " " + (rs[0].simplified.hashCode()
            == rs[1].simplified.hashCode()) + " " + tree);
    }
}
