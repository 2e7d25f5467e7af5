package dev.cumulus.internal.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.internal.rpc.AccessRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Only a client that attached as the admin (with the admin credential) and proves that credential for its own id is
 * the cluster's administrator; a client granted under another name is not, whatever it sends.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AdminProofTest {
    private static final byte[] CREDENTIAL = "the cluster's admin credential..".getBytes(StandardCharsets.UTF_8);
    private static final byte[] OTHER = "another cluster's credential....".getBytes(StandardCharsets.UTF_8);

    private static void attach(ClientAdmission admission, int client, String principal) {
        admission.attach(client, ProcessHandle.current().pid(), principal,
            ClientAdmission.proof(ClientAdmission.clientKey(CREDENTIAL, principal), client, principal));
    }

    @Test
    void theAdminProofIsCheckedAgainstTheAttachedId() {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        byte[] adminKey = ClientAdmission.clientKey(CREDENTIAL, AccessRule.ADMIN);
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(adminKey, 3)), "not attached");
        attach(admission, 3, AccessRule.ADMIN);
        assertTrue(admission.provesAdmin(3, ClientAdmission.adminProof(adminKey, 3)));
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(OTHER, 3)), "another credential");
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(adminKey, 4)), "another client's proof");
        assertFalse(admission.provesAdmin(3, ClientAdmission.proof(adminKey, 3, AccessRule.ADMIN)),
            "the attach proof is not the admin proof");
        assertFalse(admission.provesAdmin(3, null));
        admission.detach(3);
        assertFalse(admission.provesAdmin(3, ClientAdmission.adminProof(adminKey, 3)), "detached");
    }

    @Test
    void aClientGrantedUnderAnotherNameIsNoAdmin() {
        ClientAdmission admission = new ClientAdmission(CREDENTIAL, 2, 66);
        attach(admission, 4, "alice");
        byte[] aliceKey = ClientAdmission.clientKey(CREDENTIAL, "alice");
        assertFalse(admission.provesAdmin(4, ClientAdmission.adminProof(aliceKey, 4)), "its own key");
        assertFalse(admission.provesAdmin(4, ClientAdmission.adminProof(CREDENTIAL, 4)),
            "the admin proof from a client not attached as the admin");
    }
}
