package dev.cumulus;

import dev.cumulus.internal.rpc.ObjectGate;

/**
 * How {@link Remote#migrate} moves a remote object that may be running methods (Babylon's three kinds).
 *
 * <ul>
 *   <li>{@link #IDLE}: only an object that runs no method moves; otherwise {@link MigrationException} says it is
 *       busy.</li>
 *   <li>{@link #DELAYED}: new calls wait (they are not refused), running calls finish, then the object moves and the
 *       waiting calls run on the new node.</li>
 *   <li>{@link #SAFE_POINT}: for classes annotated {@link SafeMode}: a running call stops at its next
 *       {@link #point()}, the object's state goes back to the checkpoint taken before that call, the object moves
 *       and the call runs again from its start on the new node. A call that reaches no migration point finishes
 *       first, as with {@link #DELAYED}.</li>
 * </ul>
 */
public enum Migration {
    IDLE,
    DELAYED,
    SAFE_POINT;

    /**
     * A place in a method of a {@link SafeMode} object where a {@link #SAFE_POINT} migration may interrupt it. Does
     * nothing, unless such a migration of the object whose call this thread runs is pending: then it throws
     * {@link MigrationPending}, which the method must let through (rethrow it after any clean-up of its own).
     */
    public static void point() {
        ObjectGate.migrationPoint();
    }
}
