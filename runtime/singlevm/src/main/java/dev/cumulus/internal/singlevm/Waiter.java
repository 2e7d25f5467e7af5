package dev.cumulus.internal.singlevm;

/** A thread of the cluster, as a monitor's home knows it: its node and its thread id there. */
record Waiter(int node, long thread) {
    @Override
    public String toString() {
        return "thread " + thread + " on node " + node;
    }
}
