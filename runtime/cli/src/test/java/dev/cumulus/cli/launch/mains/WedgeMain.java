package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;

import java.util.concurrent.CountDownLatch;

/**
 * Joins a real cluster, passes a barrier and prints "ready pid=PID"; then node 1 blocks for good (a test wedges its
 * agent from outside) while the others wait at a second barrier, which only a failure ends.
 */
public final class WedgeMain {
    private WedgeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        try (Cluster cluster = Cluster.join()) {
            cluster.barrier();
            System.out.println("ready pid=" + ProcessHandle.current().pid());
            if (cluster.nodeId() == 1) {
                new CountDownLatch(1).await();
            }
            cluster.barrier();
            System.out.println("node " + cluster.nodeId() + " passed barrier 2");
        }
    }
}
