/**
 * Offline reports of a run: {@link dev.cumulus.profiler.report.RunProfile} reads a run directory's
 * {@code node-<i>.jfr} files with {@code RecordingFile} and aggregates them per object (remote objects, clouds, tuple
 * elements, shared arrays and partitions) and per node; {@link dev.cumulus.profiler.report.TextReport},
 * {@link dev.cumulus.profiler.report.JsonReport} and {@link dev.cumulus.profiler.report.HtmlReport} present it.
 * Used by {@code cumulus profile RUN_DIR} and after {@code cumulus run --profile}.
 *
 * <p>Threads: the caller's only. Never: fails on a missing or damaged recording (the report names it), fetches
 * anything from the network (the HTML page is self-contained), or writes anywhere but the file it is given.
 */
package dev.cumulus.profiler.report;
