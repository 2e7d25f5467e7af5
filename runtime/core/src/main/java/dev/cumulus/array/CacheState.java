package dev.cumulus.array;

/**
 * The state of one node's copy of a partition (DSA §3.1): the two bits the node's cache directory keeps per
 * partition.
 */
public enum CacheState {
    /** No usable copy here: another node is changing the partition, or this node never fetched it. */
    INVALID,
    /** An up-to-date, read-only copy; other nodes may hold copies too. */
    SHARED,
    /** The only up-to-date copy, writable here; every other copy is invalid. */
    EXCLUSIVE
}
