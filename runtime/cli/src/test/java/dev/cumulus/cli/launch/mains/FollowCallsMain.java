package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;
import dev.cumulus.Remote;

/**
 * Node 0 exports a counter; node 1 calls it until it lives on node 1 (which only {@code --rebalance} makes happen),
 * then prints where it is and whether every call counted once.
 */
public final class FollowCallsMain {
    private FollowCallsMain() {
    }

    public interface Counter {
        long add();

        long total();
    }

    public static final class CounterImpl implements Counter {
        private long total;

        @Override
        public synchronized long add() {
            return ++total;
        }

        @Override
        public synchronized long total() {
            return total;
        }
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            if (cluster.nodeId() == 0) {
                cluster.export(new CounterImpl(), Counter.class, "counter");
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                Counter counter = cluster.lookup("counter", Counter.class);
                long calls = 0;
                while (Remote.nodeOf(counter) != 1) { // bounded by the run's --timeout
                    counter.add();
                    calls++;
                }
                System.out.println("moved to node " + Remote.nodeOf(counter) + "; calls " + calls + ", total "
                    + counter.total());
            }
            cluster.barrier();
        }
    }
}
