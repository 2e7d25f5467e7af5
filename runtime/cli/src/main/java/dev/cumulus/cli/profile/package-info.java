/**
 * Per-object profiles from a run's JFR recordings: {@link dev.cumulus.cli.profile.ProfileSettings} writes the
 * recording settings (the {@code dev.cumulus.*} events and the JDK events the report reads, nothing else), and
 * {@link dev.cumulus.cli.profile.ProfileReport} reads {@code node-<i>.jfr} files with {@code RecordingFile} and
 * prints remote calls grouped by object and method, and lifecycle changes. Used after {@code cumulus run --profile};
 * meant for {@code cumulus profile RUN_DIR}.
 *
 * <p>Threads: the caller's only. Never: streams live recordings (the profiler module does), writes into the run
 * directory, or fails on a missing or damaged recording (it names it in the report).
 */
package dev.cumulus.cli.profile;
