package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;

/** Joins a real cluster; node 2 then freezes itself (SIGSTOP), which its peers must detect by heartbeats. */
public final class HangOnNode2Main {
    private HangOnNode2Main() {
    }

    public static void main(String[] args) throws Exception {
        try (Cluster cluster = Cluster.join()) {
            System.out.println("node " + cluster.nodeId() + " joined " + cluster.size());
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start().waitFor();
            }
            cluster.barrier();
            System.out.println("node " + cluster.nodeId() + " passed a barrier node 2 never reached");
        }
    }
}
