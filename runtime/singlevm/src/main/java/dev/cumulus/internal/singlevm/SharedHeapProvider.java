package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.node.NodeServices;

/**
 * Makes every node whose class path holds this module serve a {@link SharedHeap} (found by ServiceLoader). On a node
 * of {@code cumulus run --single-vm} ({@code -Dcumulus.singleVm=true}) it also opens the node's {@link ObjectSpace} for
 * the program's classes (the system class loader's), before the node joins: other nodes may ask for its objects or
 * start threads on it as soon as the cluster stands.
 */
public final class SharedHeapProvider implements NodeServices.Provider {

    @Override
    public Object create(NodeServices node) {
        SharedHeap heap = new SharedHeap(node, SharedHeap.DEFAULT_BLOCK_SLOTS);
        if (Boolean.getBoolean(LaunchConfig.SINGLE_VM)) {
            new ObjectSpace(heap, ClassLoader.getSystemClassLoader());
        }
        return heap;
    }
}
