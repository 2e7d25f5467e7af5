package dev.cumulus.internal.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A client on another host, whose process a server cannot watch, is removed with what it made there once it has not
 * said it is there for {@link ClientAdmission#LEASE_TIMEOUT_NS}; each {@link ClientGate#alive} renews it; a client on
 * the server's own host is watched by its process instead and never expires.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClientLeaseTest {
    private static final byte[] CREDENTIAL = "the cluster's admin credential..".getBytes(StandardCharsets.UTF_8);
    private static final long NOT_THIS_PROCESS = ProcessHandle.current().parent().orElseThrow().pid();

    private static byte[] proof(int client, String principal) {
        return ClientAdmission.proof(ClientAdmission.clientKey(CREDENTIAL, principal), client, principal);
    }

    @Test
    void aClientOnAnotherHostThatFallsSilentIsRemovedWithItsObjects() throws Exception {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        CompletableFuture<Map.Entry<Integer, List<ClientAdmission.Owned>>> gone = new CompletableFuture<>();
        admission.onClientGone((client, objects) -> gone.complete(Map.entry(client, objects)));
        long attached = System.nanoTime();
        admission.attachRemote(3, NOT_THIS_PROCESS, "alice", proof(3, "alice"), "10.0.0.9:40200",
            new byte[ClientAdmission.SESSION_BYTES], "another host's identity");
        admission.own(3, 77, "alice-counter");

        assertEquals(0, admission.expireLeases(attached + ClientAdmission.LEASE_TIMEOUT_NS / 2), "within its lease");
        long beforeAlive = System.nanoTime();
        admission.alive(3);
        long afterAlive = System.nanoTime();
        assertEquals(0, admission.expireLeases(beforeAlive + ClientAdmission.LEASE_TIMEOUT_NS), "renewed by alive");
        assertTrue(admission.admitted(3));

        assertEquals(1, admission.expireLeases(afterAlive + ClientAdmission.LEASE_TIMEOUT_NS + 1));
        assertEquals(Map.entry(3, List.of(new ClientAdmission.Owned(77, "alice-counter"))),
            gone.get(20, TimeUnit.SECONDS));
        assertFalse(admission.admitted(3), "its calls are refused from now on");
        assertFalse(admission.attached().containsKey(3));
    }

    @Test
    void aClientOnTheServersOwnHostIsWatchedByItsProcessNotByALease() {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        admission.attachRemote(4, NOT_THIS_PROCESS, "bob", proof(4, "bob"), "10.0.0.9:40201",
            new byte[ClientAdmission.SESSION_BYTES], ClientAdmission.hostIdentity());
        assertEquals(0, admission.expireLeases(System.nanoTime() + 100 * ClientAdmission.LEASE_TIMEOUT_NS));
        assertTrue(admission.admitted(4));
    }
}
