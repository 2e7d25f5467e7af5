package dev.cumulus.cli.standing.mains;

import dev.cumulus.Cluster;

/** A client that makes an object on a server and then dies without detaching (args: the object's name). */
public final class HaltingClientMain {
    private HaltingClientMain() {
    }

    public static void main(String[] args) {
        Cluster cluster = Cluster.join();
        Tally t = cluster.remoteNew(TallyImpl.class, Tally.class, args[0], 1);
        System.out.println("made " + args[0] + ": " + t.add(1));
        System.out.flush();
        Runtime.getRuntime().halt(9);
    }
}
