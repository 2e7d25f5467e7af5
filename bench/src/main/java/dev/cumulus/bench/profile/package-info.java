/**
 * The {@code profile} suite of {@code cumulus bench}: what {@code cumulus run --profile} and {@code --live} cost the
 * program they measure, against a plain run and the JDK's own recording, on the replicated TSP example and on reads of
 * a replicated object ({@link dev.cumulus.bench.profile.ProfileBench}).
 *
 * <p>Threads: the orchestrator's thread runs one {@code cumulus run} at a time ({@link dev.cumulus.bench.LauncherRun}: the command
 * line's JVM, started as a user starts it), two threads copy its output, one reads its nodes' CPU times from
 * {@code /proc} ({@link dev.cumulus.bench.NodeCpuWatch}; {@link dev.cumulus.bench.profile.TspTables} prints them). {@link dev.cumulus.bench.profile.ReadPathProgram}
 * is the node program of the read workload.
 *
 * <p>Never: runs two measured runs at once, or leaves a process or a run directory behind (each run's directory is
 * deleted when it ends; a run past its timeout is stopped).
 */
package dev.cumulus.bench.profile;
