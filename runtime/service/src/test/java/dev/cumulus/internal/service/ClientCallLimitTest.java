package dev.cumulus.internal.service;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server's limit on one client's outstanding calls, for clients that do not keep under it themselves (Cumulus's own
 * do: {@code ClientWindow}); {@link ClientNode} gives its window the same {@link ClientAdmission#MAX_CALLS_PER_CLIENT}.
 */
class ClientCallLimitTest {
    private static final byte[] CREDENTIAL = "limit-test-credential".getBytes(StandardCharsets.UTF_8);

    @Test
    void theCallPastTheLimitIsRefusedAndOneIsAdmittedOnceACallEnds() {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        for (int i = 0; i < ClientAdmission.MAX_CALLS_PER_CLIENT; i++) {
            assertTrue(admission.startCall(5), "call " + i);
        }
        assertFalse(admission.startCall(5), "one past the limit");
        assertTrue(admission.startCall(6), "another client has a limit of its own");
        admission.endCall(5);
        assertTrue(admission.startCall(5), "a call ended: room for one more");
        assertFalse(admission.startCall(5));
    }

    @Test
    void attachingAndLeavingAreNotCounted() {
        assertFalse(ClientCalls.counts(ClientGate.OBJECT_ID));
        assertTrue(ClientCalls.counts(dev.cumulus.internal.rpc.NameDirectory.OBJECT_ID));
    }
}
