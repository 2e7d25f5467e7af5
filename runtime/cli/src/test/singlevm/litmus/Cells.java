package litmus;

/** Two plain fields an actor writes together and another reads. */
final class Pair {
    long x;
    long y;
}

/** A volatile field. */
final class Flag {
    volatile long v;
}

/** A plain field guarded by the object's own monitor. */
final class Box {
    long v;
}

/** What one actor saw in a round, read by the judge after the round's second rendezvous. */
final class Seen {
    long a;
    long b;
    long c;
    long d;
}
