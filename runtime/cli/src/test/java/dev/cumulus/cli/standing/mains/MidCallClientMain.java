package dev.cumulus.cli.standing.mains;

import dev.cumulus.Cluster;

/**
 * A client that dies in the middle of a call: it calls {@link Valve#waitOpen()} of the valve named {@code args[0]}
 * on a thread of its own, and once the server runs the call, halts without detaching.
 */
public final class MidCallClientMain {
    private MidCallClientMain() {
    }

    public static void main(String[] args) {
        Cluster cluster = Cluster.join();
        Valve valve = cluster.lookup(args[0], Valve.class);
        int before = valve.waiting();
        Thread.ofPlatform().daemon().start(() -> {
            try {
                valve.waitOpen();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        while (valve.waiting() == before) {
            Thread.onSpinWait(); // until the server runs the call
        }
        System.out.println("in the call");
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
