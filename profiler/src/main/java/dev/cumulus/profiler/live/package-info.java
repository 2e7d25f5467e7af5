/**
 * Live profiles while a run is going. For a node on the launcher's host, the launcher reads the node's JFR disk
 * repository ({@link dev.cumulus.profiler.live.RepositoryWindows}): the node only records, and spends no CPU of its own
 * on the live profile. A node on another host streams its own recording in process
 * ({@link dev.cumulus.profiler.live.LiveProfiler}) and sends one JSON line a second over UDP to the launcher, tagged
 * with the run's live profile key ({@link dev.cumulus.profiler.live.LiveLineTag}: the sink reads no other process's
 * datagrams). Both aggregate per object and node over one-second windows
 * ({@link dev.cumulus.profiler.live.StreamWindows}, {@link dev.cumulus.profiler.live.WindowAggregator}); the launcher's
 * {@link dev.cumulus.profiler.live.LiveSink} writes every line to {@code profile-live.jsonl} and hands it on
 * ({@link dev.cumulus.profiler.live.LiveView} turns them into one terminal line a second). The format is in
 * docs/design/PROFILER.md.
 *
 * <p>Threads: in the launcher, per local node one daemon thread waits for the repository and one reads it (at a
 * lowered scheduling priority), and one daemon thread receives datagrams; on a remote node, one daemon thread reads
 * the stream, aggregates and sends, and the shutdown hook sends the last window. JFR streaming lags about one second
 * (the JDK flushes its buffers once a second), and every view says so.
 *
 * <p>Never: blocks or fails the program it observes (a send that fails is dropped and counted), sends a line longer
 * than {@link dev.cumulus.profiler.live.WindowAggregator#MAX_LINE_BYTES}, or depends on the runtime or Aeron.
 */
package dev.cumulus.profiler.live;
