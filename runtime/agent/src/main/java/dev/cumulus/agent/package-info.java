/**
 * The Cumulus Java agent: turns cloud classes (implementing {@code Cloud.Root} or {@code Cloud.Node}) into
 * replicated ones at load time.
 *
 * <p><b>What it is for.</b> {@link dev.cumulus.agent.CumulusAgent} registers the
 * {@link dev.cumulus.agent.CloudTransformer}, which checks every cloud class with the analysis library
 * ({@code CloudAnalyzer.analyzeClass}) and either refuses it (error findings: printed compiler-style, the class's
 * static initializer throws, {@link dev.cumulus.agent.Refusals} records it) or weaves the calls listed in
 * {@code CloudHooks}' javadoc: a write prologue, a {@code RestartAsWrite} handler around reads, and wait/notify
 * rewrites. Design and limits: {@code docs/design/AGENT.md}. In the single-VM mode ({@code -Dcumulus.singleVm=true},
 * set by {@code cumulus run --single-vm}) it registers {@link dev.cumulus.agent.SingleVmTransformer} instead, which
 * weaves every program class with {@code SingleVmWeaver} (docs/design/SINGLEVM.md, "The woven form") and refuses
 * program classes with native methods. Under a JFR recording, {@link dev.cumulus.agent.RecordedEvents} registers the
 * runtime's JFR event classes when the recorder starts, so JFR's start-up work for them is done before the program runs.
 * Its diagnostics (verbose, debug, dumpDir) are the options after the jar on {@code -javaagent:}, read once at start
 * into {@link dev.cumulus.agent.AgentSettings}.
 *
 * <p><b>Threads.</b> The transformer runs on whatever thread loads a class, concurrently; per-loader state is
 * guarded, the analyzer serializes its calls. {@code Refusals} is thread-safe.
 *
 * <p><b>What it never does.</b> Never adds fields or methods to a cloud class (so attached agents can retransform
 * loaded classes; the single-VM weaving, which does add them, runs only at load time), never loads or initializes the classes it analyses, never swallows an error (one line on stderr, class
 * left unchanged), never touches JDK, library or Cumulus runtime classes.
 */
package dev.cumulus.agent;
