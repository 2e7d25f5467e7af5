/**
 * The cluster as one Java virtual machine (Hyperion, issue 20): the shared heap that gives an ordinary multithreaded
 * program's objects the Java memory model's guarantees across nodes. {@link dev.cumulus.internal.singlevm.SharedHeap}
 * (one per node, a capability found by {@code ServiceLoader} through {@code SharedHeapProvider}) is the explicit API
 * the agent's woven code calls: allocation with a home (the creating node; statics on node 0), slot reads and writes
 * through the node's cache ({@code NodeCache}, {@code CachedObject}, {@code CachedBlock}: per-slot dirty bitmaps,
 * blocks, epoch invalidation), cluster-wide monitors at the home ({@code HomeMonitor}), volatile accesses at the home,
 * and the release/acquire halves for thread start and join. {@link dev.cumulus.internal.singlevm.HeapService} is what
 * the nodes call on each other. Design note and the proof obligations: {@code docs/design/SINGLEVM.md}; the core is
 * model-checked in {@code docs/design/singlevm.pml}. The woven form of a program's objects sits on top: ordinary Java
 * objects with masters at their home and copies elsewhere ({@code ObjectSpace}, {@code Copy}, {@code ClassLayout},
 * {@code ObjectImage}; objects homed where first published: {@code Publisher}, {@code Publication},
 * {@code PublicationReceiver}), reached by woven code through {@link dev.cumulus.internal.singlevm.SingleVmHooks}; the
 * program's threads go round robin over the nodes ({@code ProgramThreads}); {@code SingleVmMain} is what each node of
 * {@code cumulus run --single-vm} runs.
 *
 * <p>Threads: any thread of the node calls the API (the program's threads, bound to their node's space); a thread
 * holds monitors as itself. Protocol calls from other
 * nodes are all brief and run on whichever thread polled them.
 *
 * <p>Never: blocks in a protocol step (a busy monitor is granted later by a message); releases a monitor, or writes a
 * volatile, before the homes acknowledged every dirty slot; reads from the cache a block fetched before the node's
 * last acquire; loses a dirty slot to an invalidation; copies a large array whole.
 */
package dev.cumulus.internal.singlevm;
