package dev.cumulus.examples.pastset;

import dev.cumulus.Cluster;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

import java.util.ArrayList;
import java.util.List;

/**
 * Java PastSet Figure 2: the nodes form a ring and pass a token around it. Node {@code i} observes the element
 * {@code ring-i} (which it entered first, so it holds it: observes are local) and moves the token into
 * {@code ring-(i+1)} (a remote move). Node 0 injects the token and times full laps; printed per hop.
 *
 * <pre>cumulus run --nodes 4 -cp examples/target/classes dev.cumulus.examples.pastset.Ring [LAPS]</pre>
 */
public final class Ring {
    private Ring() {
    }

    /** Per payload size: microseconds per hop and per lap, and how many laps carried the expected token. */
    public record Result(int nodes, int bytes, double hopUs, double lapUs, int laps, int intactLaps) {
    }

    public static void main(String[] args) {
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        try (Cluster cluster = Cluster.join()) {
            for (Result r : run(cluster, laps)) {
                System.out.printf("ring of %d, %6d B: %8.1f us per hop, %8.1f us per lap (%d/%d laps intact)%n",
                    r.nodes(), r.bytes(), r.hopUs(), r.lapUs(), r.intactLaps(), r.laps());
            }
        }
    }

    /** The SPMD body: results on node 0, empty elsewhere. */
    public static List<Result> run(Cluster cluster, int laps) {
        int me = cluster.nodeId();
        int n = cluster.size();
        PastSet space = cluster.pastSet(Placement.FIRST_TOUCH);
        List<Result> results = new ArrayList<>();
        for (int size : PingPong.SIZES) {
            Element mine = space.enter("ring-" + size + "-" + me, byte[].class);
            cluster.barrier();
            Element right = space.enter("ring-" + size + "-" + (me + 1) % n, byte[].class);
            int warmup = Math.max(1, laps / 10);
            if (me == 0) {
                byte[] token = new byte[size];
                int intact = 0;
                long start = 0;
                for (int lap = 0; lap < warmup + laps; lap++) {
                    if (lap == warmup) {
                        start = System.nanoTime();
                    }
                    token[size - 1] = (byte) lap;
                    right.move((Object) token);
                    byte[] back = mine.observe().getBytes(0);
                    if (lap >= warmup && back.length == size && back[size - 1] == (byte) lap) {
                        intact++;
                    }
                }
                double lapUs = (System.nanoTime() - start) / 1000.0 / laps;
                results.add(new Result(n, size, lapUs / n, lapUs, laps, intact));
            } else {
                for (int lap = 0; lap < warmup + laps; lap++) {
                    right.move(mine.observe().get(0));
                }
            }
            mine.truncate(mine.last() + 1);
            cluster.barrier();
        }
        return results;
    }
}
