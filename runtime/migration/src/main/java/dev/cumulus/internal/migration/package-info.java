/**
 * Moving remote objects between nodes (Babylon §4.2), a module above runtime/core: {@link
 * dev.cumulus.internal.migration.Migrations} is a node's {@code ObjectMover} (what {@code Remote.migrate} and
 * {@code Remote.autoPlace} reach) and its {@code MigrationService} (what other nodes call to move an object here or
 * away), with the rebalancer that moves the objects that follow their calls, each window, as
 * {@link dev.cumulus.internal.migration.PlacementPolicy} decides. {@link
 * dev.cumulus.internal.migration.MigrationsProvider} makes it at node start (found with {@code ServiceLoader}).
 * {@link dev.cumulus.internal.migration.ObjectState} copies an object's fields by value (a move's state, a
 * checkpoint); {@link dev.cumulus.internal.migration.SafeModeCalls} runs a {@code @SafeMode} object's calls one at a
 * time, a checkpoint before each (the RPC engine's {@code ObjectMover.SafeModeQueue}). The RPC engine keeps what a move
 * needs of an object: its {@code ObjectGate} (calls held during a move, forwarded after) and the hand-over of the held
 * calls to the new node.
 *
 * <p>Threads: a move runs on the thread that asked for it (or, asked by another node, on a call thread of its own:
 * never the polling thread); the rebalancer on a virtual thread of its own; a safe-mode object's calls on a call
 * thread that drains its queue.
 *
 * <p>Never: moves a system object, lets a client of a standing cluster move another's object, or gives up on a move
 * whose state was sent before the new node answered.
 */
package dev.cumulus.internal.migration;
