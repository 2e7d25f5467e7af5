package dev.cumulus;

/** A node of the cluster died, hung, or left; the cluster is fail-stop, so the run cannot go on. */
public class NodeFailedException extends CumulusException {
    private static final long serialVersionUID = 1L;
    private final int nodeId;

    public NodeFailedException(int nodeId, String message) {
        super(message);
        this.nodeId = nodeId;
    }

    /** The node that failed. */
    public int nodeId() {
        return nodeId;
    }
}
