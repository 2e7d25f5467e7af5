package dev.cumulus.cli.launch.mains;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import java.util.Arrays;

/** Every node exports a greeter and calls its right neighbour's, synchronously and through a ticket. */
public final class RingCallsMain {
    private RingCallsMain() {
    }

    public interface Greeter {
        String greet(String who, int[] numbers);
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            cluster.export((who, numbers) -> "node " + me + " greets " + who + " sum=" + Arrays.stream(numbers)
                .sum(), Greeter.class, "greeter-" + me);
            Greeter right = cluster.lookup("greeter-" + (me + 1) % cluster.size(), Greeter.class);
            System.out.println(right.greet("node " + me, new int[] {me, 10}));
            Greeter ticket = AsyncTicket.newTicket(right);
            ticket.greet("ticket of " + me, new int[] {1, 2, 3});
            System.out.println(AsyncTicket.<String>getResult(ticket));
        }
    }
}
