package dev.cumulus;

/**
 * Optional for remote objects that hold what cannot move (open files, sockets, threads): {@link #beforeMigration()}
 * runs on the old node before the state is copied (close them; the fields that hold them should be
 * {@code transient}), {@link #afterMigration()} on the new node once the state is in place (reopen them), or again on
 * the old node when the move failed and the object stays.
 */
public interface MigrationAware {
    /** On the old node, with no call of the object running, before its state is copied. */
    default void beforeMigration() {
    }

    /** On the new node before the object serves its first call there; or on the old node if the move failed. */
    default void afterMigration() {
    }
}
