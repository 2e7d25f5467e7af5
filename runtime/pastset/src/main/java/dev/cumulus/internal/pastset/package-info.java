/**
 * The PastSet runtime behind {@link dev.cumulus.pastset}: {@link dev.cumulus.internal.pastset.PastSetRuntime} (one per
 * node, created at node start by {@code PastSetProvider}, the module's {@code NodeServices.Provider}; the
 * {@code Cluster} reaches it as its {@code PastSetCapability}), the element state on home nodes ({@code ElementState}:
 * log, First, Last, DeltaValue, redefinition), the RPC server interface ({@link dev.cumulus.internal.pastset.PastSetService}), the
 * client handles ({@code Space}, {@code ElementHandle}; {@code CallerSequence} numbers a node's {@code moveAsync}s to one
 * element so that its home runs them in order), the built-in redefinitions
 * ({@link dev.cumulus.internal.pastset.Reduction}, {@link dev.cumulus.internal.pastset.AllGather}) and the JFR events.
 * Design note: {@code docs/design/PASTSET.md}.
 *
 * <p>Threads: user threads run client calls and, for elements homed on their own node, the operation itself (fast
 * path); one that must wait polls its node for its poll budget first, running the brief remote operations its polls
 * bring, then parks on the element's condition. The remote operations that never block (moves and observes, which
 * park with their replies deferred when they must wait; pointers, DeltaValue, truncates, claims) run on whichever
 * thread polled them; {@code observe(i)} and {@code redefine} run where the RPC layer runs incoming calls
 * (docs/design/THREADING.md) and may block on an element's condition. Node failures are handled on a fresh virtual
 * thread.
 *
 * <p>Never: blocks the duty cycle; holds an element's lock while polling or while waiting for another node; orders operations on one
 * element anywhere but on its home node; lets a broken redefinition or a failed home node pass silently (callers get
 * an error naming the element).
 */
package dev.cumulus.internal.pastset;
