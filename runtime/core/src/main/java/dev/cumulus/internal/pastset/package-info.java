/**
 * The PastSet runtime behind {@link dev.cumulus.pastset}: {@link dev.cumulus.internal.pastset.PastSetRuntime} (one per
 * node, created by {@code Capabilities}), the element state on home nodes ({@code ElementState}: log, First, Last,
 * DeltaValue, redefinition), the RPC server interface ({@link dev.cumulus.internal.pastset.PastSetService}), the
 * client handles ({@code Space}, {@code ElementHandle}), the built-in redefinitions
 * ({@link dev.cumulus.internal.pastset.Reduction}, {@link dev.cumulus.internal.pastset.AllGather}) and the JFR events.
 * Design note: {@code docs/design/PASTSET.md}.
 *
 * <p>Threads: user threads run client calls and, for elements held by their own node, the operation itself (fast
 * path); remote operations run where the RPC layer runs incoming calls — on the home's main thread right after its
 * poll when the method has been quick, else on a virtual thread of their own — and may block on an element's
 * condition (a remote observe that blocks on the main thread has the node's standby poll meanwhile, and its method
 * goes to virtual threads for a while: {@code docs/design/THREADING.md}); the polling thread only reports node
 * failures, which are handled on a fresh virtual thread.
 *
 * <p>Never: blocks the duty cycle (a blocked move or observe parks its caller's thread); holds an element's
 * lock while waiting for another node; orders operations on one element anywhere but on its home node; lets a
 * broken redefinition or a failed home node pass silently (callers get an error naming the element).
 */
package dev.cumulus.internal.pastset;
