package dev.cumulus.internal.pastset;

/** Reply to a remote observe: the tuple's index, its encoded fields, and how long the call was blocked at home. */
public record Observed(long index, byte[] tuple, long blockedNs) {
}
