package dev.cumulus.examples.colouring;

/** The best colouring found so far, one object every searcher reads and improves under its monitor. */
final class Best {
    private int cost = Integer.MAX_VALUE;
    private int[] colours;

    synchronized int cost() {
        return cost;
    }

    synchronized void offer(int newCost, int[] newColours) {
        if (newCost < cost) {
            cost = newCost;
            colours = newColours.clone();
        }
    }

    synchronized int[] colours() {
        return colours == null ? null : colours.clone();
    }
}
