/**
 * The Cumulus language server: LSP over stdio ({@link dev.cumulus.lsp.CumulusLanguageServer}), one handler per
 * request ({@code DiagnosticsHandler}, {@code InlayHintHandler}, {@code HoverHandler}, {@code CodeActionHandler},
 * {@code CodeLensHandler}, {@code ExecuteCommandHandler}) turning the model's immutable snapshots into LSP4J values,
 * and the custom protocol in one interface ({@link dev.cumulus.lsp.CumulusProtocol}, documented in
 * {@code lsp-server/PROTOCOL.md}).
 *
 * <p>Threads: LSP4J's reader thread calls the services; requests return futures completed on the
 * {@code cumulus-analysis} thread when the analysis covering the latest edit is done; run output arrives on the run's
 * reader threads. Handlers never throw: they log and return an empty result.
 *
 * <p>Never: depends on Aeron or the Cumulus runtime (it talks to runs through the {@code cumulus} command and the
 * profiler's figures); reimplements a rule (the findings come from {@code dev.cumulus.analysis}); writes to stdout
 * (the protocol stream).
 */
package dev.cumulus.lsp;
