package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.rpc.ClientAdmission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
class ClientAdmissionTest {
    private final byte[] credential = new byte[32];

    @Test
    void aProofUnderAnotherCredentialOrForAnotherIdIsRefused() {
        ClientAdmission gate = new ClientAdmission(credential, 2, 66);
        gate.attach(2, ProcessHandle.current().pid(), ClientAdmission.proof(credential, 2));
        byte[] other = new byte[32];
        other[0] = 1;
        CumulusException e = assertThrows(CumulusException.class,
            () -> gate.attach(3, ProcessHandle.current().pid(), ClientAdmission.proof(other, 3)));
        assertTrue(e.getMessage().contains("credential is not this cluster's"), e.getMessage());
        assertThrows(CumulusException.class, () -> gate.attach(3, ProcessHandle.current().pid(), ClientAdmission.proof(credential, 4)));
        assertThrows(CumulusException.class, () -> gate.attach(3, ProcessHandle.current().pid(), null));
        CumulusException range = assertThrows(CumulusException.class,
            () -> gate.attach(1, ProcessHandle.current().pid(), ClientAdmission.proof(credential, 1)));
        assertTrue(range.getMessage().contains("outside 2..65"), range.getMessage());
    }
}
