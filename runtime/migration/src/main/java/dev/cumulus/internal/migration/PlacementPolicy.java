package dev.cumulus.internal.migration;

/**
 * When an object that follows its calls ({@code Remote.autoPlace}, {@code cumulus run --rebalance}) should move: to the
 * node that made at least {@link #SHARE} of its calls in a window of at least {@link #MIN_CALLS} calls, when that same
 * node won the window before as well (hysteresis: one burst does not move an object, and two nodes calling it about
 * equally do not make it swing between them, since neither reaches the share). One per object; the rebalancer's thread.
 */
final class PlacementPolicy {
    /** The share of a window's calls the node an object moves to must have made. */
    static final double SHARE = 0.6;
    /** Fewer calls than this in a window decide nothing. */
    static final long MIN_CALLS = 50;
    /** How many windows in a row the same node must win. */
    static final int WINDOWS_IN_A_ROW = 2;

    private int leader = -1;
    private int wins;

    /** What a window decided: stay ({@code node} -1), or move to {@code node}, and why. */
    record Decision(int node, String reason) {
        static final Decision STAY = new Decision(-1, null);
    }

    /**
     * Takes one window's calls by caller node ({@code calls[n]}: calls node n made) of an object that lives on
     * {@code here}.
     */
    Decision window(long[] calls, int here) {
        long total = 0;
        int top = -1;
        for (int n = 0; n < calls.length; n++) {
            total += calls[n];
            if (top < 0 || calls[n] > calls[top]) {
                top = n;
            }
        }
        if (total < MIN_CALLS || top < 0 || calls[top] < SHARE * total) {
            leader = -1;
            wins = 0;
            return Decision.STAY;
        }
        wins = top == leader ? wins + 1 : 1;
        leader = top;
        if (top == here || wins < WINDOWS_IN_A_ROW) {
            return Decision.STAY;
        }
        wins = 0;
        return new Decision(top, "rebalance: node " + top + " made " + Math.round(100.0 * calls[top] / total)
            + " % of its " + total + " calls in the last window, and led the window before");
    }
}
