package shipped.profiled;

import dev.cumulus.Cluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import shipped.admin.Counter;
import shipped.admin.CounterImpl;

/**
 * A client whose object calls another of its objects on the other server while it serves the client's call
 * ({@code nest-relay} on server 0 adds 7 to {@code nest-target} on server 1), and whose object moves: {@code nest-mover}
 * is made on server 0, called 3 times there, moved to server 1 and called 4 times there, and 2 times by the relay (on
 * server 0: calls of the moved object that its new server sees coming from another server, not from the client).
 */
public final class NestedClientMain {
    private NestedClientMain() {
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            Counter target = cluster.remoteNew(CounterImpl.class, Counter.class, "nest-target", 1);
            Relay relay = cluster.remoteNew(RelayImpl.class, Relay.class, "nest-relay", 0);
            int relayed = relay.relay(target, 7);
            Counter mover = cluster.remoteNew(CounterImpl.class, Counter.class, "nest-mover", 0);
            for (int i = 0; i < 3; i++) {
                mover.add(1);
            }
            Remote.migrate(mover, 1, Migration.DELAYED);
            for (int i = 0; i < 4; i++) {
                mover.add(1);
            }
            int moved = relay.relay(mover, 2);
            System.out.println("nested done: " + relayed + " " + moved + " " + mover.add(0));
        }
    }
}
