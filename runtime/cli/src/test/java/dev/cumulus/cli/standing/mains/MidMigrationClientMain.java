package dev.cumulus.cli.standing.mains;

import dev.cumulus.Access;
import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;

import java.time.Duration;

/**
 * A client that dies in the middle of a migration of its own object: it makes the valve {@code args[0]} on server 1
 * (any client may call it), holds it busy with a call that waits for it to open, asks to move it to server 0 (a
 * delayed move, which waits for that call: the object's gate closes, later calls wait), and once a call waits at the
 * closed gate, halts without detaching.
 */
public final class MidMigrationClientMain {
    private MidMigrationClientMain() {
    }

    public static void main(String[] args) {
        Cluster cluster = Cluster.join();
        Valve valve = cluster.remoteNew(ValveImpl.class, Valve.class, args[0], 1, Access.anyone());
        Valve busy = AsyncTicket.newTicket(valve);
        try {
            busy.waitOpen();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        while (valve.waiting() == 0) {
            Thread.onSpinWait(); // until the server runs the call
        }
        Thread.ofPlatform().daemon().start(() -> Remote.migrate(valve, 0, Migration.DELAYED));
        Valve quick = Remote.withTimeout(valve, Duration.ofMillis(200));
        while (true) { // until a call no longer gets through: it waits at the gate the move closed
            try {
                quick.waiting();
            } catch (RuntimeException closed) {
                break;
            }
        }
        System.out.println("in the move");
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
