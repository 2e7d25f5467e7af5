package dev.cumulus.cli.standing;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.service.ClientAdmission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ClientAdmissionTest {
    private final byte[] credential = new byte[32];

    @Test
    void aProofUnderAnotherCredentialForAnotherIdOrAnotherNameIsRefused() {
        ClientAdmission gate = new ClientAdmission(credential, 2, 66);
        long pid = ProcessHandle.current().pid();
        byte[] alice = ClientAdmission.clientKey(credential, "alice");
        gate.attach(2, pid, "alice", ClientAdmission.proof(alice, 2, "alice"));
        assertEquals("alice", gate.principal(2));
        byte[] other = new byte[32];
        other[0] = 1;
        AccessDeniedException e = assertThrows(AccessDeniedException.class,
            () -> gate.attach(3, pid, "bob", ClientAdmission.proof(ClientAdmission.clientKey(other, "bob"), 3, "bob")));
        assertTrue(e.getMessage().contains("credential is not valid for this cluster"), e.getMessage());
        assertThrows(AccessDeniedException.class, () -> gate.attach(3, pid, "alice",
            ClientAdmission.proof(alice, 4, "alice")), "a proof for another id");
        assertThrows(AccessDeniedException.class, () -> gate.attach(3, pid, "admin",
            ClientAdmission.proof(alice, 3, "admin")), "alice's key does not make her the admin");
        assertThrows(AccessDeniedException.class, () -> gate.attach(3, pid, "bob",
            ClientAdmission.proof(alice, 3, "bob")), "alice's key does not make her bob");
        assertThrows(AccessDeniedException.class, () -> gate.attach(3, pid, "alice", null));
        assertNull(gate.principal(3), "nothing refused is admitted");
        gate.attach(3, pid, "admin", ClientAdmission.proof(ClientAdmission.clientKey(credential, "admin"), 3, "admin"));
        assertEquals("admin", gate.principal(3));
        CumulusException range = assertThrows(CumulusException.class,
            () -> gate.attach(1, pid, "alice", ClientAdmission.proof(alice, 1, "alice")));
        assertTrue(range.getMessage().contains("outside 2..65"), range.getMessage());
    }
}
