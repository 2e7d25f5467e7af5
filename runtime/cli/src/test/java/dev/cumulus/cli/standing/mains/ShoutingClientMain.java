package dev.cumulus.cli.standing.mains;

import dev.cumulus.Cluster;

/** A client whose objects, one on each server, print to its console: classes the servers have only from it. */
public final class ShoutingClientMain {
    private ShoutingClientMain() {
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            for (int server = 0; server < cluster.size(); server++) {
                Shout s = cluster.remoteNew(ShoutImpl.class, Shout.class, "shout-" + server, server);
                System.out.println("answer: " + s.shout("server " + server));
            }
        }
    }
}
