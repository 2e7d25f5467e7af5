package dev.cumulus.internal.rpc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Only a client that attached and proves the admin credential for its own id is the cluster's administrator. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AdminProofTest {
    private static final byte[] CREDENTIAL = "the cluster's admin credential..".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER = "another cluster's credential....".getBytes(StandardCharsets.UTF_8);

    @Test
    void theAdminProofIsCheckedAgainstTheAttachedId() {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        long pid = ProcessHandle.current().pid();
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(CREDENTIAL, 3)), "not attached");
        admission.attach(3, pid, ClientAdmission.proof(CREDENTIAL, 3));
        assertTrue(admission.provesAdmin(3, ClientAdmission.adminProof(CREDENTIAL, 3)));
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(OTHER, 3)), "another credential");
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(CREDENTIAL, 4)), "another client's proof");
        assertFalse(admission.provesAdmin(3, ClientAdmission.proof(CREDENTIAL, 3)), "the attach proof is not admin");
        assertFalse(admission.provesAdmin(3, null));
        admission.detach(3);
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(CREDENTIAL, 3)), "detached");
    }
}
