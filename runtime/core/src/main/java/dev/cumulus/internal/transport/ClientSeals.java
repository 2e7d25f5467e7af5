package dev.cumulus.internal.transport;

import dev.cumulus.internal.auth.RunSecret;

import java.util.HexFormat;

/**
 * The keys of the frames between a standing cluster's servers and its clients over UDP (servers on several hosts),
 * all from the cluster's client secret ({@link #PURPOSE}, derived from the servers' run secret; the keeper writes it
 * into the cluster's owner-only state file, where clients read it). A client's frames to the servers are sealed under
 * the key of its id, their counters starting above every earlier holder's of that id (the servers never forget the
 * last counter of a client id, so an earlier client's frames are replays); the servers' frames to a client are sealed
 * under the key of its id and the session it chose at attach, so frames meant for an earlier holder of its id do not
 * open. Frames with clients are authenticated, never encrypted.
 */
final class ClientSeals {
    /** The purpose of the cluster's client secret, derived from the servers' run secret. */
    static final String PURPOSE = RunSecret.STANDING_CLIENT_FRAMES_PURPOSE;

    private ClientSeals() {
    }

    /** The keys of client {@code client}'s frames to the servers. */
    static SealKeys toServers(RunSecret clientSecret, int client) {
        return new SealKeys(clientSecret.derived("client " + client + " to servers"), false);
    }

    /** The keys of the servers' frames to client {@code client} in its session {@code session}. */
    static SealKeys toClient(RunSecret clientSecret, int client, byte[] session) {
        return new SealKeys(clientSecret.derived("client " + client + " session " + HexFormat.of().formatHex(session)),
            false);
    }
}
