package {{package}};

import dev.cumulus.Cluster;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import dev.cumulus.pastset.Tuple;

/**
 * Two PastSet patterns (Java PastSet §2-§3).
 * <ol>
 *   <li>A ring: node {@code i} observes the element {@code ring-i} (it entered it first, so it is the element's home
 *   and observes are local) and moves the token, plus one, into {@code ring-(i+1)}. Node 0 injects the token.</li>
 *   <li>A reduction: the element {@code total} is redefined with {@link Semantics#sum(int)}; every node moves its
 *   contribution, and every node's {@code observe()} returns the round's sum.</li>
 * </ol>
 *
 * <pre>cumulus run --nodes {{nodes}} -cp target/classes {{package}}.Main [LAPS]</pre>
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : {{laps}};
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            int n = cluster.size();
            PastSet space = cluster.pastSet();

            // 1. the ring
            Element mine = space.enter("ring-" + me, long.class);        // first touch: this node is its home
            cluster.barrier();
            Element right = space.enter("ring-" + (me + 1) % n, long.class);
            long start = System.nanoTime();
            if (me == 0) {
                long token = 0;
                for (int lap = 0; lap < laps; lap++) {
                    right.move(token + 1);
                    token = mine.observe().getLong(0);
                }
                double lapUs = (System.nanoTime() - start) / 1000.0 / laps;
                System.out.printf("ring: %d laps of %d nodes, token %d (%s), %.1f us per lap%n",
                    laps, n, token, token == (long) laps * n ? "verified" : "WRONG", lapUs);
                if (token != (long) laps * n) {
                    System.exit(1);
                }
            } else {
                for (int lap = 0; lap < laps; lap++) {
                    right.move(mine.observe().getLong(0) + 1);
                }
            }

            // 2. a global sum: redefine once, then every node contributes
            Template totalT = Template.of("total", long.class);
            if (me == 0) {
                space.redefine(totalT, Semantics.sum(n));
            }
            cluster.barrier();
            Element total = space.enter(totalT);
            long contribution = (me + 1) * 10L;
            total.move(contribution);
            Tuple sum = total.observe();                                  // waits for all n contributions
            long expected = 10L * n * (n + 1) / 2;
            System.out.printf("node %d contributed %d; sum of contributions: %s (%d)%n",
                me, contribution, sum.getLong(0) == expected ? "verified" : "WRONG", sum.getLong(0));
            if (sum.getLong(0) != expected) {
                System.exit(1);
            }
        }
    }
}
