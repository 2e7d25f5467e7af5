package dev.cumulus.internal.rpc;

import dev.cumulus.Access;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who an object's grant lets in: the owner and the admin always, others as {@link Access} says. */
@Timeout(10)
class AccessRuleTest {
    @Test
    void byDefaultOnlyTheOwnerAndTheAdminReachAnObject() {
        AccessRule rule = AccessRule.of("alice", Access.owner());
        assertTrue(rule.permitsLookup("alice") && rule.permitsCall("alice", "set"));
        assertTrue(rule.permitsLookup("admin") && rule.permitsCall("admin", "set"));
        assertFalse(rule.permitsLookup("bob") || rule.permitsCall("bob", "get"));
    }

    @Test
    void grantsNameClientsOrEveryoneAndMayBeNarrowedToMethods() {
        AccessRule named = AccessRule.of("alice", Access.clients("bob", "carol"));
        assertTrue(named.permitsCall("bob", "set") && named.permitsCall("carol", "get"));
        assertFalse(named.permitsLookup("dave"));

        AccessRule readOnly = AccessRule.of("alice", Access.methods("get", "size"));
        assertTrue(readOnly.permitsLookup("dave") && readOnly.permitsCall("dave", "get"));
        assertFalse(readOnly.permitsCall("dave", "set"));
        assertTrue(readOnly.permitsCall("alice", "set"), "the owner calls every method");

        AccessRule narrowed = AccessRule.of("alice", Access.clients("bob").only("get"));
        assertTrue(narrowed.permitsCall("bob", "get"));
        assertFalse(narrowed.permitsCall("bob", "set") || narrowed.permitsLookup("carol"));

        assertTrue(AccessRule.of("alice", Access.anyone()).permitsCall("zed", "set"));
    }

    @Test
    void aServerPutsInTheOwnerWhateverTheRuleClaims() {
        AccessRule claimed = AccessRule.of("bob", Access.clients("mallory"));
        AccessRule owned = claimed.ownedBy("mallory");
        assertTrue(owned.permitsCall("mallory", "set"));
        assertFalse(owned.permitsLookup("bob"), "the claimed owner is no owner");
    }

    @Test
    void anEmptyOrBlankGrantIsRefused() {
        assertThrows(IllegalArgumentException.class, Access::clients);
        assertThrows(IllegalArgumentException.class, () -> Access.methods(" "));
        assertThrows(IllegalArgumentException.class, () -> Access.anyone().only());
    }
}
