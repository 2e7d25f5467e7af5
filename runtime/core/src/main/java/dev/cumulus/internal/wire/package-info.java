/**
 * What every wire format's flyweight shares ({@link dev.cumulus.internal.wire.Flyweight}); the formats themselves
 * live next to the code that speaks them (docs/design/WIRE.md).
 *
 * <p>Threads: a flyweight belongs to one thread at a time. Never: copies or allocates per message.
 */
package dev.cumulus.internal.wire;
