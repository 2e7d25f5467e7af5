package dev.cumulus.bench.singlevm;

/** The ways the single-VM suite runs the map colouring: plain {@code java}, and the single-VM mode on 1 and 2 nodes. */
enum SingleVmMode {
    /** {@code java} alone, the same program and threads: the baseline every ratio divides by. */
    PLAIN("plain java", 0),
    /** {@code cumulus run --single-vm --nodes 1}: every object a master, so only the in-line checks cost. */
    ONE_NODE("1 node", 1),
    /** {@code cumulus run --single-vm --nodes 2}: the threads spread over two processes, the objects shared. */
    TWO_NODES("2 nodes", 2);

    private final String label;
    private final int nodes;

    SingleVmMode(String label, int nodes) {
        this.label = label;
        this.nodes = nodes;
    }

    String label() {
        return label;
    }

    /** The node count of {@code cumulus run}; {@code 0} for plain {@code java}. */
    int nodes() {
        return nodes;
    }
}
