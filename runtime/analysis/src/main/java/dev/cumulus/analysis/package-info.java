/**
 * The restriction checker and read/write classifier for replicated objects ("clouds", Manta §2.2, §3.1).
 *
 * <p><b>What it is for.</b> One library, called by three clients: the Java agent (refuses violating classes at load
 * time, {@link dev.cumulus.analysis.CloudAnalyzer#analyzeClass(String)}), {@code cumulus check -cp DIR}
 * (compiler-style output through {@link dev.cumulus.analysis.FindingFormatter}) and the language server (maps
 * {@link dev.cumulus.analysis.Finding}s to source ranges and shows each
 * {@link dev.cumulus.analysis.MethodClassification} inline). Rule ids and texts live in
 * {@link dev.cumulus.analysis.Rules}; each rule has a page under {@code docs/rules/}. Inside, one checker per rule
 * runs over shared class facts and the read/write classifier. How classification works, the structure and the
 * limits: {@code docs/design/ANALYSIS.md}.
 *
 * <p><b>Input.</b> Class files, through a {@link dev.cumulus.analysis.ClassSource} (classpath directories and jars, or
 * bytes in memory), parsed with {@code java.lang.classfile}. Cloud classes are recognized by internal name
 * ({@code dev/cumulus/Cloud$Root}, {@code dev/cumulus/Cloud$Node}); the library does not depend on the runtime.
 *
 * <p><b>Threads.</b> A {@link dev.cumulus.analysis.CloudAnalyzer} may be shared: its public methods are synchronized
 * (the agent calls it from whichever thread loads a class). Result records are immutable. Everything else is
 * package-private.
 *
 * <p><b>What it never does.</b> No transport and no LSP types: it depends on nothing but the JDK. It never loads,
 * links or initializes the classes it analyses (it reads bytes; JDK supertypes are read as resources from the
 * running JDK's image), never executes user code, and never writes files.
 */
package dev.cumulus.analysis;
