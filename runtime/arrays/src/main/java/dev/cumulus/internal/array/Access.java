package dev.cumulus.internal.array;

/** What a request wants: a shared copy to read, or exclusive ownership to write. */
public enum Access {
    READ, WRITE
}
