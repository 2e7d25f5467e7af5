package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The monitor's state machine at its home, stepped by hand: grants, FIFO queue, wait set, notify, cancelled waits. */
@Timeout(10)
class HomeMonitorTest {
    private static final Waiter A = new Waiter(1, 10);
    private static final Waiter B = new Waiter(2, 20);
    private static final Waiter C = new Waiter(2, 21);

    private final HomeMonitor m = new HomeMonitor(ObjectIds.of(0, 1));

    @Test
    void grantsInArrivalOrder() {
        assertTrue(m.enter(A));
        assertFalse(m.enter(B));
        assertFalse(m.enter(C));
        assertEquals(B, m.exit(A));
        assertEquals(C, m.exit(B));
        assertNull(m.exit(C));
        assertTrue(m.enter(A), "free again");
    }

    @Test
    void waitReleasesAndNotifyQueuesTheWaiterBehindTheHolder() {
        m.enter(A);
        m.enter(B);
        assertEquals(B, m.await(A), "a wait hands the monitor on");
        m.notifyWaiters(B, false);
        assertEquals(A, m.exit(B), "the notified waiter re-acquires once the notifier exits");
        assertNull(m.exit(A));
    }

    @Test
    void notifyAllMovesEveryWaiterAndNotifyOnlyTheFirst() {
        m.enter(A);
        assertNull(m.await(A));
        m.enter(B);
        assertNull(m.await(B));
        m.enter(C);
        m.notifyWaiters(C, false);
        assertEquals(A, m.exit(C));
        m.notifyWaiters(A, true);
        assertEquals(B, m.exit(A));
        assertNull(m.exit(B));
    }

    @Test
    void aCancelledWaitQueuesOrTakesAFreeMonitorAndANotifiedOneIsNotCancelled() {
        boolean[] wasWaiting = new boolean[1];
        m.enter(A);
        assertNull(m.await(A));
        assertEquals(A, m.cancelWait(A, wasWaiting), "the monitor is free: the cancelled waiter takes it");
        assertTrue(wasWaiting[0]);
        assertNull(m.await(A));
        m.enter(B);
        m.notifyWaiters(B, false);
        assertNull(m.cancelWait(A, wasWaiting), "notified already: it queues for the monitor");
        assertFalse(wasWaiting[0]);
        assertEquals(A, m.exit(B));
    }

    @Test
    void onlyTheHolderReleasesWaitsOrNotifies() {
        m.enter(A);
        assertThrows(IllegalMonitorStateException.class, () -> m.exit(B));
        assertThrows(IllegalMonitorStateException.class, () -> m.await(B));
        assertThrows(IllegalMonitorStateException.class, () -> m.notifyWaiters(B, true));
        assertThrows(IllegalStateException.class, () -> m.enter(A), "recursion is counted on the holder's node");
    }
}
