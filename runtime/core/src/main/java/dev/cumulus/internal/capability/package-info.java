/**
 * What the {@link dev.cumulus.Cluster} facade asks of each capability that lives in a module of its own:
 * {@link dev.cumulus.internal.capability.ArrayCapability} (runtime/arrays),
 * {@link dev.cumulus.internal.capability.PastSetCapability} (runtime/pastset) and
 * {@link dev.cumulus.internal.capability.CloudCapability} (runtime/clouds). A capability module implements its
 * interface, registers a {@link dev.cumulus.internal.node.NodeServices.Provider} in
 * {@code META-INF/services}, and the node creates its runtime at start; {@code NodeCluster} finds it by this interface
 * and, when the module is not on the class path, throws {@link dev.cumulus.internal.capability.MissingCapability}'s
 * error naming the dependency to add.
 *
 * <p>Threads: none of its own; the methods run on the user threads that call the {@code Cluster}.
 *
 * <p>Never: names a capability module's classes (runtime/core depends on none of them), or holds state.
 */
package dev.cumulus.internal.capability;
