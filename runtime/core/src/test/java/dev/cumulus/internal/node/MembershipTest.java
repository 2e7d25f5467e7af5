package dev.cumulus.internal.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class MembershipTest {
    private static final long MS = 1_000_000L;

    @Test
    void joinsWhenEveryPeerIsHeard() {
        Membership m = new Membership(0, 3, 500 * MS, 0, 10_000 * MS);
        assertFalse(m.allJoined());
        m.onHeard(1, 10 * MS);
        assertFalse(m.allJoined());
        m.onHeard(2, 20 * MS);
        assertTrue(m.allJoined());
    }

    @Test
    void silentPeerBecomesSuspectAfterTimeoutOnlyOnce() {
        Membership m = new Membership(0, 3, 500 * MS, 0, 10_000 * MS);
        m.onHeard(1, 0);
        m.onHeard(2, 0);
        assertTrue(m.check(400 * MS).isEmpty());
        m.onHeard(1, 400 * MS);
        List<Membership.Suspect> suspects = m.check(600 * MS);
        assertEquals(1, suspects.size());
        assertEquals(2, suspects.getFirst().peer());
        assertTrue(suspects.getFirst().reason().contains("node 2"), suspects.getFirst().reason());
        assertTrue(m.markFailed(2));
        assertFalse(m.markFailed(2));
        assertTrue(m.check(700 * MS).isEmpty(), "a failed peer is not reported again");
    }

    @Test
    void peerThatNeverJoinsFailsAtJoinDeadline() {
        Membership m = new Membership(1, 2, 500 * MS, 0, 2_000 * MS);
        assertTrue(m.check(1_999 * MS).isEmpty());
        List<Membership.Suspect> suspects = m.check(2_001 * MS);
        assertEquals(0, suspects.getFirst().peer());
        assertTrue(suspects.getFirst().reason().contains("did not join"));
    }

    @Test
    void peerThatSaidGoodbyeIsNeverSuspect() {
        Membership m = new Membership(0, 2, 500 * MS, 0, 10_000 * MS);
        m.onHeard(1, 0);
        m.onGoodbye(1);
        assertTrue(m.check(5_000 * MS).isEmpty());
        assertEquals(Membership.PeerState.LEFT, m.state(1));
    }
}
