package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rounds of work until a file appears: each round a barrier and a remote call to the next node. Node 0 decides,
 * before each round's barrier, whether that round is the last (the file {@code args[0]} exists); the others ask it
 * after the barrier, so every node runs the same rounds. Prints "ready pid=PID" once joined, "done after N rounds" at
 * the end.
 */
public final class RoundsMain {
    private RoundsMain() {
    }

    /** Node 0's decisions, by round. */
    public interface Decider {
        boolean lastRound(int round);
    }

    /** Each node's: answers a round's call. */
    public interface Pinger {
        int ping(int round);
    }

    public static void main(String[] args) throws Exception {
        Path stop = Path.of(args[0]);
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            int n = cluster.size();
            Map<Integer, Boolean> decisions = new ConcurrentHashMap<>();
            if (me == 0) {
                cluster.export(decisions::get, Decider.class, "decider");
            }
            cluster.export(round -> round + 1, Pinger.class, "pinger-" + me);
            cluster.barrier();
            Decider decider = me == 0 ? decisions::get : cluster.lookup("decider", Decider.class);
            Pinger next = cluster.lookup("pinger-" + (me + 1) % n, Pinger.class);
            System.out.println("ready pid=" + ProcessHandle.current().pid());
            int round = 0;
            while (true) {
                if (me == 0) {
                    decisions.put(round, Files.exists(stop));
                }
                cluster.barrier();
                if (next.ping(round) != round + 1) {
                    throw new IllegalStateException("a wrong answer in round " + round);
                }
                if (decider.lastRound(round)) {
                    break;
                }
                round++;
            }
            System.out.println("done after " + (round + 1) + " rounds");
        }
    }
}
