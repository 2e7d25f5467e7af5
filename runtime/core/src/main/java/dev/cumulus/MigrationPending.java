package dev.cumulus;

/**
 * Thrown by {@link Migration#point()} when a {@link Migration#SAFE_POINT} migration of the running {@link SafeMode}
 * object is pending. An {@link Error}, so an ordinary {@code catch (Exception e)} does not swallow it: let it
 * propagate (rethrow it after clean-up); the runtime restores the checkpoint taken before the call, moves the object,
 * and runs the call again on the new node. Its caller sees one call and one result.
 */
public final class MigrationPending extends Error {
    private static final long serialVersionUID = 1L;

    public MigrationPending() {
        super("a safe-point migration of this object is pending; let this error propagate (the call runs again on the "
            + "object's new node)", null, false, false);
    }
}
