/**
 * The {@code hostile} suite of {@code cumulus bench}: hostile inputs (issue 24 §2) sent by one node process to another
 * of a real run, each timed from send to refusal, and the attacked node's service and heap checked afterwards.
 * {@link dev.cumulus.bench.hostile.HostileBench} orchestrates and prints the table;
 * {@link dev.cumulus.bench.hostile.HostileNode} is each node's program; {@link dev.cumulus.bench.hostile.HostileInputs}
 * makes the bytes; {@link dev.cumulus.bench.hostile.Target} is what node 0 exports.
 *
 * <p>Threads: each node's main thread (the attacker measures on it); node 0 serves calls on the runtime's threads.
 * The attacker reads runtime internals (hand-made calls, raw frames on the run's driver, the target's counters); the
 * runtime itself is never changed by it.
 */
package dev.cumulus.bench.hostile;
