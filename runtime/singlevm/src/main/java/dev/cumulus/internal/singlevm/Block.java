package dev.cumulus.internal.singlevm;

/**
 * What a home answers to a fetch: the object's length in slots, which of its slots are final (a bitmap, one bit per
 * slot, empty for arrays), and the values of the block asked for. Public only because RPC needs it; not user API.
 *
 * @param length the object's length in slots
 * @param finals bitmap of the final slots (word {@code i / 64}, bit {@code i % 64})
 * @param values the block's slots, from {@code block * blockSlots} up to the length
 */
public record Block(int length, long[] finals, long[] values) {
}
