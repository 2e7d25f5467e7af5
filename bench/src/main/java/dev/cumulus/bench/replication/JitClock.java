package dev.cumulus.bench.replication;

/**
 * A node's JIT compilers, as a remote object every node of the measurement exports ({@code bench-jit-N}): a warm-up
 * on one node ends only once no node compiles any more ({@link dev.cumulus.bench.JitQuiet}).
 */
public interface JitClock {
    /** The time this JVM's compilers have spent compiling so far, ms ({@code CompilationMXBean}). */
    long compileMillis();
}
