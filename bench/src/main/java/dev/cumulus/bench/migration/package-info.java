/**
 * The {@code migration} suite of {@code cumulus bench} (issue 18 §4): what moving a remote object costs. The
 * orchestrator ({@link dev.cumulus.bench.migration.MigrationBench}) starts five node processes
 * ({@link dev.cumulus.bench.migration.MigrationNode}) with the launch contract of {@code cumulus run}, collects their
 * {@code RESULT} lines and prints three tables: the pause of a move against one remote call carrying the same bytes,
 * a call through a stale proxy (a forwarding chain of 1 and 3) before and after the chain collapses against a direct
 * call, and calls per second on an object that moves every 10 ms under load, with the count of lost and doubled calls.
 * The objects it moves are in {@link dev.cumulus.bench.migration.MovingObjects}. Only the orchestrator's thread and
 * each node's main thread (and node 4's mover in the load part) run this code; it never touches the transport.
 */
package dev.cumulus.bench.migration;
