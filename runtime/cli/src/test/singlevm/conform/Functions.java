package conform;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;

/**
 * Functional interfaces: program classes implementing Comparator and Function stored in shared objects and called
 * from other nodes; lambdas and method references of Comparator, Function, Supplier, IntBinaryOperator and a custom
 * functional interface made and called on a thread's own node, capturing shared objects; Runnable lambdas capturing
 * locals of several types.
 */
final class Functions implements Conform.Case {
    @FunctionalInterface
    interface Combiner {
        long combine(long a, long b);

        default Combiner twice() {
            return (a, b) -> combine(combine(a, b), b);
        }
    }

    record Item(String name, int weight) {
    }

    /** A program class implementing Comparator: a shared object, usable anywhere. */
    static final class ByWeightThenName implements Comparator<Item> {
        @Override
        public int compare(Item x, Item y) {
            int c = Integer.compare(x.weight(), y.weight());
            return c != 0 ? c : x.name().compareTo(y.name());
        }
    }

    /** A program class implementing Function. */
    static final class Scale implements Function<Integer, Integer> {
        final int by;

        Scale(int by) {
            this.by = by;
        }

        @Override
        public Integer apply(Integer x) {
            return x * by;
        }
    }

    static final class Holder {
        Comparator<Item> order;
        Function<Integer, Integer> scale;
        Item[] items;
        String sorted;
        long combined;
        int applied;
        String supplied;
    }

    static int triple(int x) {
        return 3 * x;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Holder h = new Holder();
        h.order = new ByWeightThenName();
        h.scale = new Scale(7);
        h.items = new Item[] {new Item("pear", 3), new Item("fig", 1), new Item("apple", 3), new Item("kiwi", 2)};
        long seed = 5;
        char sep = ';';
        Thread sorter = new Thread(() -> {
            Item[] mine = h.items.clone();
            Arrays.sort(mine, h.order);
            StringBuilder b = new StringBuilder();
            for (Item it : mine) {
                b.append(it.name()).append(sep);
            }
            Comparator<Item> byName = Comparator.comparing(Item::name);
            Item[] again = h.items.clone();
            Arrays.sort(again, byName.reversed());
            b.append(again[0].name());
            h.sorted = b.toString();
        });
        Thread applier = new Thread(() -> {
            Combiner add = (a, b) -> a + b + seed;
            Combiner mul = Math::multiplyExact;
            h.combined = add.twice().combine(mul.combine(3, 4), 10);
            Function<Integer, Integer> f = h.scale.andThen(Functions::triple);
            IntBinaryOperator max = Math::max;
            h.applied = max.applyAsInt(f.apply(2), 40);
            Supplier<String> s = () -> h.items[1].name() + sep + seed;
            h.supplied = s.get();
        });
        Conform.startJoin(sorter, applier);
        out.println("sorted " + h.sorted + " combined " + h.combined + " applied " + h.applied + " supplied "
            + h.supplied + " here " + h.scale.apply(6) + " " + h.order.compare(h.items[0], h.items[2]));
    }
}
