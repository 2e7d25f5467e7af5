package weave;

import dev.cumulus.Cloud;

/** A root whose writes reach a node class of its own: not wait-free, whatever that class does. */
public class Ledger implements Cloud.Root {
    private Line last;

    public static class Line implements Cloud.Node {
        final int amount;
        final Line previous;

        Line(int amount, Line previous) {
            this.amount = amount;
            this.previous = previous;
        }
    }

    public synchronized void add(int amount) {
        last = new Line(amount, last);
    }

    public synchronized int lastAmount() {
        return last == null ? 0 : last.amount;
    }
}
