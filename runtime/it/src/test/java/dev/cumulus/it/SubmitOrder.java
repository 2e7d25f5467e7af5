package dev.cumulus.it;

import dev.cumulus.Cloud;

/** A cloud that counts writes arriving out of their writer's order: two writers, each numbering its writes 1, 2, ... */
public class SubmitOrder implements Cloud.Root {
    private long lastOfA;
    private long lastOfB;
    private int outOfOrder;
    private long bytes;

    public synchronized void add(int writer, long number, String padding) {
        long last = writer == 0 ? lastOfA : lastOfB;
        if (number != last + 1) {
            outOfOrder++;
        }
        if (writer == 0) {
            lastOfA = number;
        } else {
            lastOfB = number;
        }
        bytes += padding.length();
    }

    public synchronized long last(int writer) {
        return writer == 0 ? lastOfA : lastOfB;
    }

    public synchronized int outOfOrder() {
        return outOfOrder;
    }

    public synchronized long bytes() {
        return bytes;
    }
}
