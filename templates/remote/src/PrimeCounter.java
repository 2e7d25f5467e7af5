package {{package}};

/** A worker, reached through this plain interface from any node (a dynamic proxy on the caller's side). */
public interface PrimeCounter {
    /** How many primes lie in {@code [from, to)}. */
    int countPrimes(long from, long to);

    /** How many ranges this worker has counted so far. */
    int tasksDone();
}
