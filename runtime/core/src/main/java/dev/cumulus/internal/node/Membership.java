package dev.cumulus.internal.node;

import java.util.ArrayList;
import java.util.List;

/**
 * Who is in the cluster and who is alive, from one node's point of view. Pure state: time comes in as arguments,
 * so tests step it by hand. Agent thread only.
 *
 * <p>States per peer: {@code JOINING} (not heard from yet) → {@code ALIVE} (heard) ⇄ {@code SUSPECT} (its
 * {@link PhiAccrualDetector} suspects it; it is probed) → {@code LEFT} (said goodbye) or {@code FAILED} (no proof of
 * life within the verification window after the suspicion, its process exited without a goodbye, or reported
 * failed). LEFT and FAILED are final.
 *
 * <p>A proof of life is a heartbeat whose progress counter moved since the peer's previous one: its heartbeat thread
 * beats even while its agent is wedged, so a beat with the same count says "the process runs, its agent does not".
 */
final class Membership {
    enum PeerState { JOINING, ALIVE, SUSPECT, LEFT, FAILED }

    /** What {@link #check} found: a peer to probe, or one to declare failed. */
    sealed interface Verdict {
        int peer();
    }

    /** {@code peer} is suspected: ask it to prove it lives (again each check while it stays suspected). */
    record Probe(int peer) implements Verdict {
    }

    /** {@code peer} failed, and the reason for the user. */
    record Failed(int peer, String reason) implements Verdict {
    }

    private final int self;
    private final NodeSettings.Liveness liveness;
    private final PeerState[] states;
    private final PhiAccrualDetector[] detectors;
    private final long[] progress;
    /** When a beat last came whose progress did not move (the peer runs, its agent does not); 0: none since a proof. */
    private final long[] staleBeatNs;
    private final long[] suspectedNs;
    private final long[] exitedNs;
    private final long[] pids;
    private final long joinDeadlineNs;

    Membership(int self, int size, NodeSettings.Liveness liveness, long startNs, long joinTimeoutNs) {
        this.self = self;
        this.liveness = liveness;
        this.states = new PeerState[size];
        this.detectors = new PhiAccrualDetector[size];
        this.progress = new long[size];
        this.staleBeatNs = new long[size];
        this.suspectedNs = new long[size];
        this.exitedNs = new long[size];
        this.pids = new long[size];
        this.joinDeadlineNs = startNs + joinTimeoutNs;
        for (int i = 0; i < size; i++) {
            states[i] = i == self ? PeerState.ALIVE : PeerState.JOINING;
            progress[i] = Long.MIN_VALUE;
        }
    }

    /** Any message from {@code peer}: a joining peer is in (its detector starts now). */
    void onHeard(int peer, long nowNs) {
        if (states[peer] == PeerState.JOINING) {
            states[peer] = PeerState.ALIVE;
            detectors[peer] = new PhiAccrualDetector(liveness.phiThreshold(), liveness.heartbeatIntervalNs(),
                liveness.minStdNs(), liveness.suspectFloorNs(), liveness.suspectCeilingNs(), nowNs);
        }
    }

    /**
     * A heartbeat from {@code peer} carrying its agent's progress count. Returns true when it is a proof of life
     * (the count moved): the detector takes the sample, and a suspect is alive again.
     */
    boolean onBeat(int peer, long peerProgress, long nowNs) {
        onHeard(peer, nowNs);
        PeerState s = states[peer];
        if (s != PeerState.ALIVE && s != PeerState.SUSPECT) {
            return false;
        }
        if (peerProgress == progress[peer]) {
            staleBeatNs[peer] = nowNs;
            return false;
        }
        progress[peer] = peerProgress;
        staleBeatNs[peer] = 0;
        detectors[peer].proof(nowNs);
        states[peer] = PeerState.ALIVE;
        return true;
    }

    /** {@code peer} runs as process {@code pid} on this host (its hello said so). */
    void onProcess(int peer, long pid) {
        pids[peer] = pid;
    }

    /** The operating system says {@code peer}'s process exited. */
    void onProcessExited(int peer, long nowNs) {
        if (exitedNs[peer] == 0) {
            exitedNs[peer] = nowNs == 0 ? 1 : nowNs;
        }
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

    /** Whether messages to {@code peer} are still worth sending: it has neither left nor failed. */
    boolean reachable(int peer) {
        PeerState s = states[peer];
        return s == PeerState.JOINING || s == PeerState.ALIVE || s == PeerState.SUSPECT;
    }

    boolean allJoined() {
        for (PeerState s : states) {
            if (s == PeerState.JOINING) {
                return false;
            }
        }
        return true;
    }

    /**
     * What the time {@code nowNs} tells: peers to probe (just suspected, or still suspected) and peers to declare
     * failed (not confirmed alive within the verification window, never joined by the join deadline, or whose
     * process exited a heartbeat interval ago without a goodbye — time for its last messages to be read).
     */
    List<Verdict> check(long nowNs) {
        List<Verdict> verdicts = new ArrayList<>(0);
        for (int peer = 0; peer < states.length; peer++) {
            if (peer == self) {
                continue;
            }
            PeerState s = states[peer];
            if ((s == PeerState.ALIVE || s == PeerState.SUSPECT || s == PeerState.JOINING) && exitedNs[peer] != 0
                && nowNs - exitedNs[peer] >= liveness.heartbeatIntervalNs()) {
                verdicts.add(new Failed(peer, "node " + peer + "'s process" + (pids[peer] > 0 ? " (pid " + pids[peer]
                    + ")" : "") + " exited without saying goodbye: it was killed or crashed"));
            } else if (s == PeerState.ALIVE && detectors[peer].suspects(nowNs)) {
                states[peer] = PeerState.SUSPECT;
                suspectedNs[peer] = nowNs;
                verdicts.add(new Probe(peer));
            } else if (s == PeerState.SUSPECT) {
                verdicts.add(nowNs - suspectedNs[peer] >= liveness.verifyNs()
                    ? new Failed(peer, reason(peer, nowNs)) : new Probe(peer));
            } else if (s == PeerState.JOINING && nowNs - joinDeadlineNs > 0) {
                verdicts.add(new Failed(peer, "node " + peer + " did not join within the join timeout"
                    + " (did its program call Cluster.join()?)"));
            }
        }
        return verdicts;
    }

    private String reason(int peer, long nowNs) {
        PhiAccrualDetector d = detectors[peer];
        String how = "suspected after " + seconds(suspectedNs[peer] - d.lastProofNs()) + ", then no answer to probes for "
            + seconds(nowNs - suspectedNs[peer]) + "; heartbeat timeout " + seconds(liveness.suspectCeilingNs());
        if (staleBeatNs[peer] != 0) {
            return "node " + peer + "'s heartbeats arrive but its agent has made no progress for "
                + seconds(d.silenceNs(nowNs)) + ": it is wedged (a call or decoder that never returns, or its agent "
                + "thread died) (" + how + ")";
        }
        return "node " + peer + " has not been heard from for " + seconds(d.silenceNs(nowNs))
            + ": it died, hangs or is stopped (" + how + ")";
    }

    private static String seconds(long ns) {
        return String.format(java.util.Locale.ROOT, "%.1f s", ns / 1e9);
    }
}
