package dev.cumulus.internal.node;

/**
 * Where a failure began, as one node saw it: the node {@code origin} and what happened there ({@code cause}). What a
 * launched node reports to its launcher (runtime/launch's {@code FailureReport}).
 */
public record FailureCause(int origin, String cause) {
}
