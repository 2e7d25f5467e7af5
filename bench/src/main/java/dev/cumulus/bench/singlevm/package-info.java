/**
 * The {@code single-vm} suite of {@code cumulus bench}: Hyperion's table (seeds/hyperion.txt §5) for this machine —
 * the map colouring example under plain {@code java}, under {@code cumulus run --single-vm} on one node (what the
 * woven in-line checks cost) and on two nodes ({@link dev.cumulus.bench.singlevm.SingleVmBench}).
 *
 * <p>Threads: the orchestrator's thread runs one program at a time ({@link dev.cumulus.bench.LauncherRun}), two
 * threads copy its output.
 *
 * <p>Never: runs two measured programs at once, or leaves a process or a run directory behind.
 */
package dev.cumulus.bench.singlevm;
