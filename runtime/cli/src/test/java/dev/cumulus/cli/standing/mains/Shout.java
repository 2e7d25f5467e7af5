package dev.cumulus.cli.standing.mains;

/** A remote object's interface of a client's own classes (the standing cluster over hosts test). */
public interface Shout {
    /** Prints a line on the server (the client's console shows it) and returns what it was given. */
    String shout(String what);
}
