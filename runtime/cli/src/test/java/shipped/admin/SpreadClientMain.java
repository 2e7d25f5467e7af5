package shipped.admin;

import dev.cumulus.Cluster;

/**
 * A client that makes a {@link Counter} on every server of its cluster, adds {@code s + 1} on server {@code s} and
 * prints {@code spread: N servers, totals T0 T1 ...}.
 */
public final class SpreadClientMain {
    private SpreadClientMain() {
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            StringBuilder totals = new StringBuilder();
            for (int s = 0; s < cluster.size(); s++) {
                Counter c = cluster.remoteNew(CounterImpl.class, Counter.class, "spread-" + s, s);
                totals.append(' ').append(c.add(s + 1));
            }
            System.out.println("spread: " + cluster.size() + " servers, totals" + totals);
        }
    }
}
