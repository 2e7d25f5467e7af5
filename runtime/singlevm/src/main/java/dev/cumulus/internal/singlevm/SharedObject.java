package dev.cumulus.internal.singlevm;

/**
 * Marks a program class woven for the single-VM mode: its instances are shared objects, each with the
 * {@code $cumulus$state} and {@code $cumulus$id} fields the agent adds to the topmost program class of its hierarchy
 * (docs/design/SINGLEVM.md, "The woven form"). Public only because woven classes implement it; not user API.
 */
public interface SharedObject {
}
