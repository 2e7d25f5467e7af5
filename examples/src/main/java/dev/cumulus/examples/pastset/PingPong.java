package dev.cumulus.examples.pastset;

import dev.cumulus.Cluster;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Java PastSet Figure 3: two processes pass a token of a given size back and forth through two elements, in three
 * scenarios: both processes and the elements on one node ({@code local}); the elements with one process, the other
 * process on another node ({@code one-remote}); the elements on a third node, away from both processes
 * ({@code all-remote}). Prints the round-trip time per payload size. Elements are placed first-touch, so the node
 * that enters an element first holds it.
 *
 * <pre>cumulus run --nodes 3 -cp examples/target/classes dev.cumulus.examples.pastset.PingPong [ROUNDS]</pre>
 */
public final class PingPong {
    /** Payload sizes in bytes. */
    public static final int[] SIZES = {8, 1024, 32 * 1024};

    private PingPong() {
    }

    /** One measured round trip: scenario, payload bytes, mean microseconds, and whether every token came back intact. */
    public record Result(String scenario, int bytes, double roundTripUs, boolean intact) {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        try (Cluster cluster = Cluster.join()) {
            for (Result r : run(cluster, rounds)) {
                System.out.printf("%-10s %6d B  round trip %8.1f us%s%n", r.scenario(), r.bytes(), r.roundTripUs(),
                    r.intact() ? "" : "  TOKEN CORRUPTED");
            }
        }
    }

    /** The SPMD body: the results on node 0 (empty elsewhere). */
    public static List<Result> run(Cluster cluster, int rounds) {
        List<Result> results = new ArrayList<>();
        PastSet space = cluster.pastSet(Placement.FIRST_TOUCH);
        int me = cluster.nodeId();
        for (int size : SIZES) {
            // local: two threads of node 0, elements on node 0
            if (me == 0) {
                Element ping = space.enter("ping-local-" + size, byte[].class);
                Element pong = space.enter("pong-local-" + size, byte[].class);
                CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> echo(ping, pong, rounds + rounds / 10),
                    r -> Thread.ofPlatform().daemon().start(r));
                results.add(measure("local", size, ping, pong, rounds));
                echo.join();
            }
            cluster.barrier();
            if (cluster.size() >= 2) {
                // one remote: elements and the echoing process on node 0, the measuring process on node 1
                Element ping = null;
                Element pong = null;
                if (me == 0) {
                    ping = space.enter("ping-one-" + size, byte[].class);
                    pong = space.enter("pong-one-" + size, byte[].class);
                }
                cluster.barrier();
                if (me == 1) {
                    ping = space.enter("ping-one-" + size, byte[].class);
                    pong = space.enter("pong-one-" + size, byte[].class);
                    Result r = measure("one-remote", size, ping, pong, rounds);
                    space.enter("report-" + size, String.class, int.class, double.class, boolean.class)
                        .move(r.scenario(), r.bytes(), r.roundTripUs(), r.intact());
                } else if (me == 0) {
                    echo(ping, pong, rounds + rounds / 10);
                    results.add(report(space, size));
                }
                cluster.barrier();
            }
            if (cluster.size() >= 3) {
                // all remote: elements on node 2, processes on nodes 0 and 1
                if (me == 2) {
                    space.enter("ping-all-" + size, byte[].class);
                    space.enter("pong-all-" + size, byte[].class);
                }
                cluster.barrier();
                if (me == 0) {
                    Element ping = space.enter("ping-all-" + size, byte[].class);
                    Element pong = space.enter("pong-all-" + size, byte[].class);
                    results.add(measure("all-remote", size, ping, pong, rounds));
                } else if (me == 1) {
                    echo(space.enter("ping-all-" + size, byte[].class), space.enter("pong-all-" + size, byte[].class),
                        rounds + rounds / 10);
                }
                cluster.barrier();
            }
        }
        return results;
    }

    private static Result report(PastSet space, int size) {
        var t = space.enter("report-" + size, String.class, int.class, double.class, boolean.class).observe();
        return new Result(t.getString(0), t.getInt(1), t.getDouble(2), (Boolean) t.get(3));
    }

    /** Sends {@code rounds} tokens (after a tenth as warm-up) and times the round trips. */
    private static Result measure(String scenario, int size, Element ping, Element pong, int rounds) {
        byte[] token = new byte[size];
        boolean intact = true;
        int warmup = rounds / 10;
        long start = 0;
        for (int i = 0; i < warmup + rounds; i++) {
            if (i == warmup) {
                start = System.nanoTime();
            }
            token[0] = (byte) i;
            token[size - 1] = (byte) ~i;
            ping.move((Object) token);
            byte[] back = pong.observe().getBytes(0);
            intact &= back.length == size && back[0] == (byte) i && back[size - 1] == (byte) ~i;
        }
        double us = (System.nanoTime() - start) / 1000.0 / rounds;
        ping.truncate(ping.last() + 1);
        pong.truncate(pong.last() + 1);
        return new Result(scenario, size, us, intact);
    }

    /** Observes each token and moves it straight back. */
    private static void echo(Element ping, Element pong, int count) {
        for (int i = 0; i < count; i++) {
            pong.move(ping.observe().getBytes(0));
        }
    }
}
