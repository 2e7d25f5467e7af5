package dev.cumulus.bench.hostile;

/**
 * A record in no exported signature: a node's transfer allow-list does not hold it, so a message naming it is refused
 * before its class is initialized.
 */
record Stranger(int value) {
}
