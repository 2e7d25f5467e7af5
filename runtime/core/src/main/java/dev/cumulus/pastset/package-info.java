/**
 * PastSet, the structured tuple space (Pedersen and Vinter, "Java PastSet"): {@link dev.cumulus.pastset.PastSet}
 * spaces, typed {@link dev.cumulus.pastset.Element}s named by their {@link dev.cumulus.pastset.Template}, each a
 * causally ordered log of {@link dev.cumulus.pastset.Tuple}s written with {@code move} and read with {@code observe};
 * DeltaValue flow control; user redefinable {@link dev.cumulus.pastset.Semantics} (global reductions, all-gather,
 * your own classes); {@link dev.cumulus.pastset.Placement} policies. Get a space from
 * {@link dev.cumulus.Cluster#pastSet()}.
 *
 * <p>Threads: every type is thread-safe. Blocking operations park the calling thread only.
 *
 * <p>Never: shares a tuple's objects between processes (tuples are copied by value), reorders the operations on one
 * element, or drops a tuple except through {@code truncate}.
 */
package dev.cumulus.pastset;
