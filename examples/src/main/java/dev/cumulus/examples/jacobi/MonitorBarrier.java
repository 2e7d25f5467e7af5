package dev.cumulus.examples.jacobi;

/**
 * A cyclic barrier for a fixed number of parties, built from one monitor: the last party to arrive starts the next
 * generation and wakes the others ({@code notifyAll}); a party waits until the generation it arrived in has passed.
 */
final class MonitorBarrier {
    private final int parties;
    private int arrived;
    private long generation;

    MonitorBarrier(int parties) {
        if (parties < 1) {
            throw new IllegalArgumentException("a barrier needs at least one party, got " + parties);
        }
        this.parties = parties;
    }

    /** Waits until every party has arrived in this generation. */
    synchronized void await() throws InterruptedException {
        long mine = generation;
        arrived++;
        if (arrived == parties) {
            arrived = 0;
            generation++;
            notifyAll();
            return;
        }
        while (generation == mine) {
            wait();
        }
    }
}
