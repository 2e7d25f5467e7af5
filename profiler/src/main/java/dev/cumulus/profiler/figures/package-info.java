/**
 * The figures the editor and the terminal show per object, each defined once here: {@link
 * dev.cumulus.profiler.figures.WindowMerger} merges the nodes' live windows into the cluster's newest figures (sums
 * over nodes, the highest percentile), {@link dev.cumulus.profiler.figures.ReportFigures} makes a finished run's
 * figures from its recordings, {@link dev.cumulus.profiler.figures.RuntimeObjects} tells the runtime's own objects from
 * the program's, and {@link dev.cumulus.profiler.figures.FigureText} writes one object's figures as a line (code lenses,
 * {@code cumulus run --live}). Both carry {@link dev.cumulus.profiler.channel.ObjectFigures} records; readers (the
 * language server, the extension) show them and never recompute them.
 *
 * <p>Threads: {@code WindowMerger} is fed by the launcher's sink thread and is thread-safe; the rest is stateless.
 * Never: reads recordings itself (that is {@code report.RunProfile}), or loads Gson on a node.
 */
package dev.cumulus.profiler.figures;
