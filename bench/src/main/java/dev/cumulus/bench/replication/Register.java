package dev.cumulus.bench.replication;

import dev.cumulus.Cloud;

/**
 * The replicated object of the replication suite (Manta §3.5's "minimalistic read and write methods"): {@link #set}
 * is a write (one field assignment), {@link #get} a read. Both are {@code synchronized}, so the plain baseline is a
 * synchronized call. {@link #peek} is a read without the lock (the field is volatile): the bench reads it right after
 * each applied write, on the applying thread, to take t_e when the replica holds its value.
 */
public class Register implements Cloud.Root {
    private volatile long value;

    public synchronized void set(long v) {
        value = v;
    }

    public synchronized long get() {
        return value;
    }

    public long peek() {
        return value;
    }
}
