package {{package}};

/** The worker object: every worker node exports one under {@code counter-<node>}. */
public final class PrimeCounterImpl implements PrimeCounter {
    private int tasks;

    @Override
    public synchronized int countPrimes(long from, long to) {
        tasks++;
        return count(from, to);
    }

    @Override
    public synchronized int tasksDone() {
        return tasks;
    }

    static int count(long from, long to) {
        int count = 0;
        for (long x = Math.max(2, from); x < to; x++) {
            if (isPrime(x)) {
                count++;
            }
        }
        return count;
    }

    private static boolean isPrime(long x) {
        if (x < 4) {
            return x >= 2;
        }
        if (x % 2 == 0) {
            return false;
        }
        for (long d = 3; d * d <= x; d += 2) {
            if (x % d == 0) {
                return false;
            }
        }
        return true;
    }
}
