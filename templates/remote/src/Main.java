package {{package}};

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

/**
 * Master-worker with asynchronous tickets (Babylon §3). Every node but 0 exports a {@link PrimeCounter}; node 0 looks
 * them up, cuts {@code [0, LIMIT)} into chunks and keeps every worker busy: each call goes through a new ticket
 * ({@code AsyncTicket.newTicket}), which returns at once, and {@code AsyncTicket.getResult} collects it later.
 *
 * <pre>cumulus run --nodes {{nodes}} -cp target/classes {{package}}.Main [LIMIT] [CHUNKS]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        long limit = args.length > 0 ? Long.parseLong(args[0]) : {{limit}};
        int chunks = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            if (me != 0 || cluster.size() == 1) {
                cluster.export(new PrimeCounterImpl(), PrimeCounter.class, "counter-" + me);
            }
            cluster.barrier();                                   // every worker is exported
            if (me == 0) {
                master(cluster, limit, chunks);
            }
            cluster.barrier();                                   // workers serve calls until the master is done
        }
    }

    private static void master(Cluster cluster, long limit, int chunks) {
        int workers = Math.max(1, cluster.size() - 1);
        PrimeCounter[] worker = new PrimeCounter[workers];
        for (int w = 0; w < workers; w++) {
            int node = cluster.size() == 1 ? 0 : w + 1;
            worker[w] = cluster.lookup("counter-" + node, PrimeCounter.class);
        }

        long start = System.nanoTime();
        PrimeCounter[] tickets = new PrimeCounter[chunks];
        for (int c = 0; c < chunks; c++) {
            tickets[c] = AsyncTicket.newTicket(worker[c % workers]);    // one ticket per call
            tickets[c].countPrimes(limit * c / chunks, limit * (c + 1) / chunks);   // returns at once
        }
        long primes = 0;
        for (int c = 0; c < chunks; c++) {
            int part = AsyncTicket.getResult(tickets[c]);
            primes += part;
        }
        long parallelMs = (System.nanoTime() - start) / 1_000_000;
        for (int w = 0; w < workers; w++) {
            System.out.println("worker " + w + " counted " + worker[w].tasksDone() + " ranges");
        }

        long expected = PrimeCounterImpl.count(0, limit);
        System.out.printf("primes: %s (%d below %d, %d chunks on %d workers, %d ms)%n",
            primes == expected ? "verified" : "WRONG, expected " + expected, primes, limit, chunks, workers, parallelMs);
        if (primes != expected) {
            System.exit(1);
        }
    }
}
