/**
 * The PastSet runtime behind {@link dev.cumulus.pastset}: {@link dev.cumulus.internal.pastset.PastSetRuntime} (one per
 * node, created at node start by {@code PastSetProvider}, the module's {@code NodeServices.Provider}; the
 * {@code Cluster} reaches it as its {@code PastSetCapability}), the element state on home nodes ({@code ElementState}:
 * log, First, Last, DeltaValue, redefinition), the RPC server interface ({@link dev.cumulus.internal.pastset.PastSetService}), the
 * client handles ({@code Space}, {@code ElementHandle}), the built-in redefinitions
 * ({@link dev.cumulus.internal.pastset.Reduction}, {@link dev.cumulus.internal.pastset.AllGather}) and the JFR events.
 * Design note: {@code docs/design/PASTSET.md}.
 *
 * <p>Threads: user threads run client calls and, for elements homed on their own node, the operation itself (fast
 * path). Remote operations run where the RPC layer runs incoming calls (docs/design/THREADING.md) and may block on an
 * element's condition; the polling thread only reports node failures, handled on a fresh virtual thread.
 *
 * <p>Never: blocks the duty cycle; holds an element's lock while waiting for another node; orders operations on one
 * element anywhere but on its home node; lets a broken redefinition or a failed home node pass silently (callers get
 * an error naming the element).
 */
package dev.cumulus.internal.pastset;
