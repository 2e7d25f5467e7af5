/**
 * The analysis core of the language server, free of LSP types: the workspace's sources
 * ({@link dev.cumulus.lsp.model.Workspace}), in-memory compilation with ECJ proceeding on errors, the shared
 * {@link dev.cumulus.analysis.CloudAnalyzer} over the class files, and placement of its findings and classifications
 * in the source with the JDT DOM ({@link dev.cumulus.lsp.model.WorkspaceAnalysis},
 * {@link dev.cumulus.lsp.model.SourceIndex}), published as immutable {@link dev.cumulus.lsp.model.Snapshot}s.
 * Also: classpath discovery, quick-fix edits, lens sites (named objects, and the single-VM heap's fields:
 * {@link dev.cumulus.lsp.model.HeapFieldSites}, which reads class files for superclasses), live profile figures and
 * the run controller.
 *
 * <p>Threads: {@link dev.cumulus.lsp.model.AnalysisScheduler} owns one thread that compiles and analyses (debounced);
 * snapshots, figures and the workspace's open documents are safe to read from any thread.
 *
 * <p>Never: loads or runs analysed classes; decides what is a violation (the analyzer does); imports LSP4J.
 */
package dev.cumulus.lsp.model;
