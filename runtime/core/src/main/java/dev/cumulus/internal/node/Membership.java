package dev.cumulus.internal.node;

import java.util.ArrayList;
import java.util.List;

/**
 * Who is in the cluster and who is alive, from one node's point of view. Pure state: time comes in as arguments,
 * so tests step it by hand. Agent thread only.
 *
 * <p>States per peer: {@code JOINING} (not heard from yet) → {@code ALIVE} (heard) → {@code LEFT} (said goodbye) or
 * {@code FAILED} (silent for longer than the timeout, or reported failed). LEFT and FAILED are final.
 */
final class Membership {
    enum PeerState { JOINING, ALIVE, LEFT, FAILED }

    private final int self;
    private final PeerState[] states;
    private final long[] lastHeardNs;
    private final long timeoutNs;
    private final long joinDeadlineNs;

    Membership(int self, int size, long timeoutNs, long startNs, long joinTimeoutNs) {
        this.self = self;
        this.states = new PeerState[size];
        this.lastHeardNs = new long[size];
        this.timeoutNs = timeoutNs;
        this.joinDeadlineNs = startNs + joinTimeoutNs;
        for (int i = 0; i < size; i++) {
            states[i] = i == self ? PeerState.ALIVE : PeerState.JOINING;
            lastHeardNs[i] = startNs;
        }
    }

    /** Any message from {@code peer} proves it alive. */
    void onHeard(int peer, long nowNs) {
        if (states[peer] == PeerState.JOINING) {
            states[peer] = PeerState.ALIVE;
        }
        lastHeardNs[peer] = nowNs;
    }

    void onGoodbye(int peer) {
        if (states[peer] != PeerState.FAILED) {
            states[peer] = PeerState.LEFT;
        }
    }

    /** Marks {@code peer} failed; returns true if it was not failed before. */
    boolean markFailed(int peer) {
        if (states[peer] == PeerState.FAILED) {
            return false;
        }
        states[peer] = PeerState.FAILED;
        return true;
    }

    PeerState state(int peer) {
        return states[peer];
    }

    boolean allJoined() {
        for (PeerState s : states) {
            if (s == PeerState.JOINING) {
                return false;
            }
        }
        return true;
    }

    /** A failure found by a timeout: which peer, and a message for the user. */
    record Suspect(int peer, String reason) {
    }

    /** Peers that just became suspect: silent past the timeout once joined, or never joined by the deadline. */
    List<Suspect> check(long nowNs) {
        List<Suspect> suspects = new ArrayList<>(0);
        for (int peer = 0; peer < states.length; peer++) {
            if (peer == self) {
                continue;
            }
            if (states[peer] == PeerState.ALIVE && nowNs - lastHeardNs[peer] > timeoutNs) {
                suspects.add(new Suspect(peer, "node " + peer + " has not been heard from for "
                    + seconds(nowNs - lastHeardNs[peer]) + ": it died or hangs (heartbeat timeout "
                    + seconds(timeoutNs) + ")"));
            } else if (states[peer] == PeerState.JOINING && nowNs - joinDeadlineNs > 0) {
                suspects.add(new Suspect(peer, "node " + peer + " did not join within the join timeout"
                    + " (did its program call Cluster.join()?)"));
            }
        }
        return suspects;
    }

    private static String seconds(long ns) {
        return String.format("%.1f s", ns / 1e9);
    }
}
