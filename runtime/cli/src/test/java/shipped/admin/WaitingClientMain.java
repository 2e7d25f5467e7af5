package shipped.admin;

import dev.cumulus.Cluster;

/** A client that makes the object {@code args[0]} and then waits until its standard input ends (or it is killed). */
public final class WaitingClientMain {
    private WaitingClientMain() {
    }

    public static void main(String[] args) throws Exception {
        try (Cluster cluster = Cluster.join()) {
            cluster.remoteNew(CounterImpl.class, Counter.class, args[0], 0).add(1);
            System.out.println("made " + args[0]);
            System.out.flush();
            while (System.in.read() >= 0) {
                // waits
            }
        }
    }
}
