package dev.cumulus.pastset;

/**
 * Where the elements of a space live (PastSet §3.5). Every element lives on exactly one home node, which orders all
 * operations on it; the name service finds that node from the element's template key. Each placement is its own
 * space: the same template in two spaces with different placements names two different elements.
 */
public enum Placement {
    /** Every element on node 0. Needs no look-up; does not scale; the reference for the others. */
    CENTRAL,
    /**
     * Elements spread over the nodes by a deterministic hash of the template key, so each node holds every n-th
     * element. Needs no look-up and no message to find an element.
     */
    ROUND_ROBIN,
    /**
     * An element lives on the node that entered it first. The first {@code enter} of a template asks the element's
     * directory node (chosen by the key's hash) to record the home; concurrent first entries are ordered there and
     * the earliest wins. Later entries learn the home from the directory once and cache it.
     */
    FIRST_TOUCH
}
