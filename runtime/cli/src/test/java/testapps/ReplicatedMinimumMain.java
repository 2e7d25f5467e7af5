package testapps;

import dev.cumulus.Cloud;
import dev.cumulus.Cluster;

/** (Not under dev.cumulus.cli: the agent never weaves the toolkit's own packages.) A replicated minimum across real node processes (the agent is loaded with -javaagent by the launcher). */
public final class ReplicatedMinimumMain {
    private ReplicatedMinimumMain() {
    }

    /** Manta §4.1's shared minimum. */
    public static class Minimum implements Cloud.Root {
        private int min = Integer.MAX_VALUE;

        public synchronized void set(int m) {
            if (m < min) {
                min = m;
            }
        }

        public int get() {
            return min;
        }
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            Minimum best = cluster.replicated("best", Minimum::new);
            for (int i = 0; i < 50; i++) {
                best.set(1000 - cluster.nodeId() * 100 - i);
            }
            cluster.barrier();
            System.out.println("node " + cluster.nodeId() + " sees minimum " + best.get());
        }
    }
}
