/**
 * {@code cumulus bench}: benchmarks of the Cumulus runtime on real node processes, printed side by side with peer
 * baselines as ratios. {@link dev.cumulus.bench.RpcBench} is the {@code rpc} suite.
 *
 * <p>Processes: the orchestrator ({@link dev.cumulus.bench.BenchMain}, in a JVM the CLI starts on this module's own
 * classpath, so the peers never sit on the CLI's) starts every measured process itself with the same JVM flags and
 * the current classpath, hosts the shared Aeron media driver of a run, reads the processes' stdout protocol ({@code READY}, {@code PHASE}, {@code RESULT} lines, see {@link dev.cumulus.bench.ChildIo}) and
 * samples their CPU time. A measurement's parameters reach its children as {@code -Dbench.*} properties
 * ({@link dev.cumulus.bench.Workload}, each suite's {@code Settings}): the orchestrator's channel to the JVMs it starts,
 * no user setting (ARCHITECTURE.md, "Launcher-internal properties"). Children exit when their stdin closes, so a
 * killed orchestrator leaves no orphan. Over hosts
 * ({@code --hosts}, {@link dev.cumulus.bench.BenchHosts}) process {@code i} of a measurement runs on the host of slot
 * {@code i}, as an ssh session started through the launcher's own host agents
 * ({@code dev.cumulus.cli.launch.HostGroup}), with the same protocol on its stdin and stdout.
 *
 * <p>Warm-ups: the {@code rpc} and {@code replication} suites start a measured series once the JIT compilers of every
 * JVM of the measurement have been quiet for a while ({@link dev.cumulus.bench.JitQuiet}, read from {@code /proc}): on a small box C2 takes a core for seconds after
 * a series starts, and a series measured meanwhile measures its processes squeezed onto the cores left.
 *
 * <p>Threads: the orchestrator's caller thread runs the suite; one reader thread per child copies its output; a JVM
 * shutdown hook stops every child and deletes every Aeron and run directory on Ctrl-C.
 *
 * <p>Never: runs a measurement inside the orchestrator's JVM, or leaves a process or a directory behind.
 */
package dev.cumulus.bench;
