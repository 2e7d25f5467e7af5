package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.node.NodeServices;

/** Makes every node whose class path holds this module serve a {@link SharedHeap} (found by ServiceLoader). */
public final class SharedHeapProvider implements NodeServices.Provider {
    @Override
    public Object create(NodeServices node) {
        return new SharedHeap(node, SharedHeap.DEFAULT_BLOCK_SLOTS);
    }
}
