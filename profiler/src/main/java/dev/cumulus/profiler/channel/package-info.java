/**
 * The profile channel: one typed schema for everything the profiler hands to other programs. A
 * {@link dev.cumulus.profiler.channel.ProfileRecord} is either a node's one-second
 * {@link dev.cumulus.profiler.channel.LiveWindow} (the live stream: UDP to the launcher, {@code profile-live.jsonl},
 * {@code @cumulus-profile} lines on the launcher's stdout), the cluster's
 * {@link dev.cumulus.profiler.channel.LiveFigures} merged from every node's newest window, or a run's
 * {@link dev.cumulus.profiler.channel.ProfileReport} ({@code cumulus profile --json}, and the last
 * {@code @cumulus-profile} line of a run). {@link dev.cumulus.profiler.channel.ObjectFigures} is what the editor shows
 * per object, live and after the run. The records here are the
 * schema: their component names are the JSON field names (documented in docs/design/PROFILER.md, units in the names),
 * and the editor's {@code profileSchema.ts} mirrors them.
 *
 * <p>Two writers, one shape: {@link dev.cumulus.profiler.channel.RecordWriter} (no dependencies) inside node JVMs;
 * {@link dev.cumulus.profiler.channel.ProfileGson} (Gson) everywhere else, which also reads.
 *
 * <p>Never: loads Gson on a node ({@link dev.cumulus.profiler.channel.RecordWriter} and the records do not refer to
 * it), or writes a {@code null} field (absent fields are left out).
 */
package dev.cumulus.profiler.channel;
