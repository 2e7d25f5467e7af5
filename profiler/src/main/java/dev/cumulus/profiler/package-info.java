/**
 * The Cumulus profiler: turns the runtime's JDK Flight Recorder events ({@code dev.cumulus.*}) into per-object
 * profiles. {@link dev.cumulus.profiler.report} reads a run directory's {@code node-<i>.jfr} files after a run (text
 * tables, the JSON report, a self-contained HTML page); {@link dev.cumulus.profiler.live} aggregates a node's own
 * event stream over one-second windows and sends one JSON line a second to the launcher; both speak the typed
 * records of {@link dev.cumulus.profiler.channel}.
 *
 * <p>This package holds what both share: event names and lenient field access ({@link dev.cumulus.profiler.Events})
 * and latency histograms ({@link dev.cumulus.profiler.Latencies}, HdrHistogram).
 *
 * <p>Never: depends on the runtime or on Aeron (events are read by name and field, so new {@code dev.cumulus.*}
 * events are handled generically), or fails on an event with missing fields.
 */
package dev.cumulus.profiler;
