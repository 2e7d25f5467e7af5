package dev.cumulus.examples.colouring;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * One search thread: takes states from the pool; near the root it puts the state's children back for other
 * searchers, deeper it completes the state with its own branch and bound and offers what it found.
 */
final class Searcher extends Thread {
    private final WorkPool pool;
    private final Best best;
    private final int[][] adj;
    private final int[] costs;
    private final int splitDepth;
    /** The search whose stats this thread prints when it ends, or 0: none. */
    private final int statsOf;
    long expanded;

    Searcher(String name, WorkPool pool, Best best, int[][] adj, int[] costs, int splitDepth, int statsOf) {
        super(name);
        this.statsOf = statsOf;
        this.pool = pool;
        this.best = best;
        this.adj = adj;
        this.costs = costs;
        this.splitDepth = splitDepth;
    }

    @Override
    public void run() {
        int[][] myAdj = new int[adj.length][]; // this node's own copy: read without fetches after every lock
        for (int i = 0; i < adj.length; i++) {
            myAdj[i] = adj[i].clone();
        }
        int[] myCosts = costs.clone();
        ThreadMXBean cpu = statsOf == 0 ? null : ManagementFactory.getThreadMXBean();
        long cpuStart = cpu == null ? 0 : cpu.getCurrentThreadCpuTime();
        try {
            Task t;
            while ((t = pool.take()) != null) {
                try {
                    step(t, myAdj, myCosts);
                } finally {
                    pool.done();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (cpu != null) {
            long us = (cpu.getCurrentThreadCpuTime() - cpuStart) / 1000;
            System.out.println("stats search " + statsOf + " " + getName() + ": " + expanded + " states, " + us
                + " us of CPU");
        }
    }

    private void step(Task t, int[][] myAdj, int[] myCosts) {
        Search s = new Search(myAdj, myCosts, best.cost());
        int[] colours = t.colours.clone();
        if (s.lowerBound(t.next, t.cost) >= best.cost()) {
            return;
        }
        if (t.next < splitDepth) {
            for (int c = 0; c < myCosts.length; c++) {
                if (s.allowed(colours, t.next, c)) {
                    int[] child = colours.clone();
                    child[t.next] = c;
                    pool.put(new Task(child, t.next + 1, t.cost + myCosts[c]));
                }
            }
            return;
        }
        int found = s.complete(colours, t.next, t.cost);
        expanded += s.expanded();
        if (s.bestColours() != null) {
            best.offer(found, s.bestColours());
        }
    }
}
