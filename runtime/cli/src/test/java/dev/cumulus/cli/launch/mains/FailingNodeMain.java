package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * Joins a real cluster and passes a barrier; then node {@code NODE} fails the way {@code KIND} says while the others
 * enter a second barrier, which nobody may pass: {@code exit} ({@code System.exit(3)}), {@code throw} (an exception
 * out of {@code main}, through try-with-resources), {@code hang} (the process stops itself with SIGSTOP; its peers
 * detect it by heartbeats), {@code oom} (an {@code OutOfMemoryError} out of {@code main}; run with a small heap),
 * {@code non-transferable} (a remote call with an argument that cannot be sent, which throws on the caller).
 * Arguments: {@code KIND NODE}.
 */
public final class FailingNodeMain {
    private FailingNodeMain() {
    }

    /** Node 1's sink for the non-transferable call: anything it receives would be printed. */
    public interface Sink {
        void take(Object value);
    }

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int failing = Integer.parseInt(args[1]);
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            if (me == 1) {
                cluster.export(value -> System.out.println("node 1 took " + value), Sink.class, "sink");
            }
            cluster.barrier();
            System.out.println("node " + me + " passed barrier 1");
            if (me == failing) {
                fail(kind, cluster);
            }
            cluster.barrier();
            System.out.println("node " + me + " passed barrier 2");
        }
    }

    private static void fail(String kind, Cluster cluster) throws Exception {
        switch (kind) {
            case "exit" -> System.exit(3);
            case "throw" -> throw new IllegalStateException("node " + cluster.nodeId() + " gives up");
            case "hang" -> new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start()
                .waitFor();
            case "oom" -> exhaustHeap();
            case "non-transferable" -> cluster.lookup("sink", Sink.class).take(new Thread("not transferable"));
            default -> throw new IllegalArgumentException("unknown failure kind " + kind);
        }
    }

    /** Allocates until the heap is full; the list dies with this frame, so the node can still report. */
    private static void exhaustHeap() {
        List<long[]> hog = new ArrayList<>();
        while (true) {
            hog.add(new long[128 * 1024]);
        }
    }
}
