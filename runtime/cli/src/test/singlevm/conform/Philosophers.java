package conform;

/**
 * Dining philosophers with ordered locks (each takes the lower-numbered fork first, so no deadlock): five
 * philosophers on different nodes eat 40 times each, counting on the forks they hold; main checks the counts.
 */
final class Philosophers implements Conform.Case {
    static final class Fork {
        final int id;
        int uses;

        Fork(int id) {
            this.id = id;
        }
    }

    static final int N = 5;
    static final int MEALS = 40;

    @Override
    public void run(Conform.Out out) throws Exception {
        Fork[] forks = new Fork[N];
        for (int i = 0; i < N; i++) {
            forks[i] = new Fork(i);
        }
        int[] meals = new int[N];
        Thread[] ts = new Thread[N];
        for (int p = 0; p < N; p++) {
            int me = p;
            Fork left = forks[p];
            Fork right = forks[(p + 1) % N];
            Fork first = left.id < right.id ? left : right;
            Fork second = first == left ? right : left;
            ts[p] = new Thread(() -> {
                for (int m = 0; m < MEALS; m++) {
                    synchronized (first) {
                        synchronized (second) {
                            first.uses++;
                            second.uses++;
                            meals[me]++;
                        }
                    }
                }
            }, "philosopher-" + p);
        }
        Conform.startJoin(ts);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < N; i++) {
            b.append(meals[i]).append('/').append(forks[i].uses).append(' ');
        }
        out.println("meals/uses " + b.toString().trim());
    }
}
