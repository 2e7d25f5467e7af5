package dev.cumulus.internal.pastset;

/** Reply to a remote move: the tuple's index and how long the move was blocked at the home node. */
public record MoveReply(long index, long blockedNs) {
}
