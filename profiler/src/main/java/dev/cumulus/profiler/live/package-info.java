/**
 * Live profiles while a run is going. On each node, {@link dev.cumulus.profiler.live.LiveProfiler} consumes the node's
 * own JFR event stream (in process), aggregates it per object and node over one-second windows
 * ({@link dev.cumulus.profiler.live.WindowAggregator}) and sends one JSON line a second over loopback UDP to the
 * launcher, tagged with the run's live profile key ({@link dev.cumulus.profiler.live.LiveLineTag}: the sink reads no
 * other process's datagrams), where {@link dev.cumulus.profiler.live.LiveSink} writes every line to {@code profile-live.jsonl} and
 * hands it on ({@link dev.cumulus.profiler.live.LiveView} turns them into one terminal line a second). The format is
 * in docs/design/PROFILER.md.
 *
 * <p>Threads: on a node, one daemon thread reads the stream, aggregates and sends; the shutdown hook sends the last
 * window. In the launcher, one daemon thread receives. JFR streaming lags about one second (the JDK flushes its
 * buffers once a second), and every view says so.
 *
 * <p>Never: blocks or fails the program it observes (a send that fails is dropped and counted), sends a line longer
 * than {@link dev.cumulus.profiler.live.WindowAggregator#MAX_LINE_BYTES}, or depends on the runtime or Aeron.
 */
package dev.cumulus.profiler.live;
