package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Membership on a stepped clock: joining, suspicion, verification, the verdicts and their reasons. */
@Timeout(10)
class MembershipTest {
    private static final long MS = 1_000_000L;
    /** The node settings' liveness at a 200 ms interval and a 2 s heartbeat timeout: suspected after 1 to 2 s. */
    private static final NodeSettings.Liveness LIVENESS =
        NodeSettings.of(0, 3, 200, 2_000, "backoff", 3, new Properties()).liveness();

    private static Membership membership(int self, int size, long joinTimeoutNs) {
        return new Membership(self, size, LIVENESS, 0, joinTimeoutNs);
    }

    /** Peer {@code peer} beats every 200 ms from {@code from} to {@code to} with a moving count; returns the count. */
    private static long beat(Membership m, int peer, long from, long to, long progress) {
        for (long t = from; t <= to; t += 200 * MS) {
            m.onBeat(peer, ++progress, t);
        }
        return progress;
    }

    @Test
    void theLivenessFollowsTheHeartbeatTimeout() {
        assertEquals(1_000 * MS, LIVENESS.suspectFloorNs());
        assertEquals(2_000 * MS, LIVENESS.suspectCeilingNs());
        assertEquals(1_000 * MS, LIVENESS.verifyNs());
        assertEquals(4_000 * MS, LIVENESS.stuckSendNs());
        NodeSettings.Liveness tight = NodeSettings.of(0, 1, 200, 300, "backoff", 1, new Properties()).liveness();
        assertEquals(300 * MS, tight.suspectFloorNs(), "the floor never passes the ceiling");
        NodeSettings.Liveness loose = NodeSettings.of(0, 1, 200, 30_000, "backoff", 1, new Properties()).liveness();
        assertEquals(15_000 * MS, loose.suspectFloorNs());
    }

    @Test
    void joinsWhenEveryPeerIsHeard() {
        Membership m = membership(0, 3, 10_000 * MS);
        assertFalse(m.allJoined());
        m.onHeard(1, 10 * MS);
        assertFalse(m.allJoined());
        m.onHeard(2, 20 * MS);
        assertTrue(m.allJoined());
    }

    @Test
    void aSilentPeerIsProbedThenDeclaredFailedOnce() {
        Membership m = membership(0, 3, 10_000 * MS);
        beat(m, 1, 0, 10_000 * MS, 0);
        beat(m, 2, 0, 1_000 * MS, 0); // node 2 falls silent after 1 s
        assertTrue(m.check(1_999 * MS).isEmpty(), "not before the floor");
        List<Membership.Verdict> v = m.check(2_000 * MS);
        assertEquals(List.of(new Membership.Probe(2)), v, "suspected at the floor: clock-like beats");
        assertEquals(Membership.PeerState.SUSPECT, m.state(2));
        assertEquals(List.of(new Membership.Probe(2)), m.check(2_999 * MS), "probed again while suspected");
        v = m.check(3_000 * MS);
        Membership.Failed f = assertInstanceOf(Membership.Failed.class, v.getFirst());
        assertEquals(2, f.peer());
        assertTrue(f.reason().contains("node 2 has not been heard from for 2.0 s"), f.reason());
        assertTrue(f.reason().contains("heartbeat timeout 2.0 s"), f.reason());
        assertTrue(m.markFailed(2));
        assertFalse(m.markFailed(2));
        assertTrue(m.check(3_100 * MS).isEmpty(), "a failed peer is not reported again");
    }

    @Test
    void aSuspectThatProvesItLivesIsAliveAgain() {
        Membership m = membership(0, 2, 10_000 * MS);
        long progress = beat(m, 1, 0, 1_000 * MS, 0);
        assertEquals(List.of(new Membership.Probe(1)), m.check(2_000 * MS));
        assertTrue(m.onBeat(1, progress + 1, 2_500 * MS), "the answer to the probe");
        assertEquals(Membership.PeerState.ALIVE, m.state(1));
        assertTrue(m.check(3_000 * MS).isEmpty());
    }

    @Test
    void aPeerSilentForLessThanTheHeartbeatTimeoutIsNeverDeclaredFailed() {
        Membership m = membership(0, 2, 10_000 * MS);
        long progress = 0;
        long t = 0;
        for (int pause = 0; pause < 20; pause++) { // pauses of 1.9 s, then a second of beats, twenty times
            progress = beat(m, 1, t, t + 1_000 * MS, progress);
            t += 1_000 * MS + 1_900 * MS;
            for (long c = t - 1_900 * MS; c < t; c += 100 * MS) {
                for (Membership.Verdict v : m.check(c)) {
                    assertInstanceOf(Membership.Probe.class, v, "at " + c / MS + " ms");
                }
            }
        }
    }

    @Test
    void beatsWithoutProgressAreNoProofOfLife() {
        Membership m = membership(0, 2, 10_000 * MS);
        long progress = beat(m, 1, 0, 1_000 * MS, 0);
        for (long t = 1_200 * MS; t <= 3_000 * MS; t += 200 * MS) {
            assertFalse(m.onBeat(1, progress, t), "the heartbeat thread beats, the agent is stuck");
        }
        assertEquals(List.of(new Membership.Probe(1)), m.check(2_000 * MS));
        Membership.Failed f = assertInstanceOf(Membership.Failed.class, m.check(3_000 * MS).getFirst());
        assertTrue(f.reason().contains("node 1's heartbeats arrive but its agent has made no progress for 2.0 s"),
            f.reason());
    }

    @Test
    void aPeerWhoseProcessExitedFailsAfterOneInterval() {
        Membership m = membership(0, 3, 10_000 * MS);
        beat(m, 1, 0, 1_000 * MS, 0);
        beat(m, 2, 0, 1_000 * MS, 0);
        m.onProcess(1, 4242);
        m.onProcessExited(1, 1_000 * MS);
        assertTrue(m.check(1_100 * MS).isEmpty(), "its last messages may still be on their way");
        Membership.Failed f = assertInstanceOf(Membership.Failed.class, m.check(1_200 * MS).getFirst());
        assertEquals(1, f.peer());
        assertEquals("node 1's process (pid 4242) exited without saying goodbye: it was killed or crashed", f.reason());
        m.onGoodbye(2);
        m.onProcessExited(2, 1_000 * MS);
        assertTrue(m.check(5_000 * MS).stream().noneMatch(v -> v.peer() == 2), "it said goodbye first");
    }

    @Test
    void peerThatNeverJoinsFailsAtJoinDeadline() {
        Membership m = membership(1, 2, 2_000 * MS);
        assertTrue(m.check(1_999 * MS).isEmpty());
        Membership.Failed f = assertInstanceOf(Membership.Failed.class, m.check(2_001 * MS).getFirst());
        assertEquals(0, f.peer());
        assertTrue(f.reason().contains("did not join"));
    }

    @Test
    void peerThatSaidGoodbyeIsNeverSuspect() {
        Membership m = membership(0, 2, 10_000 * MS);
        m.onHeard(1, 0);
        m.onGoodbye(1);
        assertTrue(m.check(5_000 * MS).isEmpty());
        assertEquals(Membership.PeerState.LEFT, m.state(1));
        assertFalse(m.reachable(1));
        assertFalse(m.onBeat(1, 7, 5_000 * MS), "a beat after the goodbye proves nothing");
        assertEquals(Duration.ofSeconds(2).toNanos(), LIVENESS.suspectCeilingNs());
    }
}
