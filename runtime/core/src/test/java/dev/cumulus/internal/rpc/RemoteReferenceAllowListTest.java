package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A remote reference in a message names an interface: a node makes a proxy only for one its own signatures mention,
 * so a message can neither load and initialise an arbitrary interface nor widen the transfer allow-list with it.
 */
@Timeout(30)
class RemoteReferenceAllowListTest {
    static volatile boolean evilInitialised;

    /** A value type only {@link Evil} mentions. */
    public record Secret(String value) {
    }

    /** An interface with a static initialiser that runs when a proxy class for it is initialised. */
    public interface Evil {
        boolean INITIALISED = mark();

        Secret get();

        default void touch() {
        }

        private static boolean mark() {
            evilInitialised = true;
            return true;
        }
    }

    @Test
    void aReferenceToAnInterfaceNoSignatureMentionsIsRefusedBeforeAnythingIsLoaded() {
        RpcEngine engine = new RpcEngine(0, 2, (to, buf, off, len) -> { }, getClass().getClassLoader(), 0);
        try {
            CumulusException e = assertThrows(CumulusException.class,
                () -> engine.fromRef(new RemoteRef(1, 77, Evil.class.getName())));
            assertTrue(e.getMessage().contains(Evil.class.getName()), e.getMessage());
            assertFalse(evilInitialised, "the named interface was initialised");
        } finally {
            engine.close();
        }
    }
}
