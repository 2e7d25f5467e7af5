package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.jfr.RemoteCallServedEvent;
import jdk.jfr.Recording;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The profile of one client's run of a standing cluster ({@code cumulus run --attach NAME --profile}): the client's
 * JVM records its own remote calls (and the calls servers make to objects it exported) from the start, every server
 * records the client's share in a window of its own (the calls the client makes there, and those to and moves of the
 * objects it made there: {@code ClientGate#profile}), and at the end, before the client detaches, the recordings go
 * into the run directory the launcher reads: {@code node-<server>.jfr} per server and {@code node-<client>.jfr} for the
 * client (its transport id). The launcher's {@code cumulus profile} report is then the client's own profile, as for a
 * run's nodes. Thread of the client program's connect and close.
 */
final class ClientProfile {
    private final Path dir;
    private final Recording own;

    private ClientProfile(Path dir, Recording own) {
        this.dir = dir;
        this.own = own;
    }

    /**
     * The profile the launcher asked for ({@link ClientCluster#PROFILE_PROPERTY}), started; or null when it asked for
     * none.
     */
    static ClientProfile startIfAsked(ClientNode node) {
        String d = System.getProperty(ClientCluster.PROFILE_PROPERTY);
        if (d == null || d.isBlank()) {
            return null;
        }
        Recording own = new Recording();
        own.setName("cumulus-client-profile");
        own.enable(RemoteCallEvent.class).withoutThreshold();
        own.enable(RemoteCallServedEvent.class).withoutThreshold();
        own.enable(ClientProfiles.MIGRATION_EVENT).withoutThreshold();
        own.start();
        try {
            node.startServerProfiles();
        } catch (RuntimeException e) {
            own.close();
            throw e;
        }
        return new ClientProfile(Path.of(d), own);
    }

    /**
     * Writes the client's own recording and every server's share into the run directory. A share that cannot be had
     * (a server gone) is told on stderr and left out: the report then names the missing file's node in no table.
     */
    void finish(ClientNode node) {
        try {
            own.dump(dir.resolve(fileName(node.clientId())));
        } catch (IOException e) {
            System.err.println("cumulus: cannot write this client's recording into " + dir + ": " + e.getMessage());
        } finally {
            own.close();
        }
        for (int server = 0; server < node.servers(); server++) {
            try {
                Files.write(dir.resolve(fileName(server)), node.serverProfile(server));
            } catch (IOException | CumulusException e) {
                System.err.println("cumulus: server " + server + "'s share of this client's profile is missing: "
                    + e.getMessage());
            }
        }
    }

    private static String fileName(int node) {
        return "node-" + node + ".jfr";
    }
}
