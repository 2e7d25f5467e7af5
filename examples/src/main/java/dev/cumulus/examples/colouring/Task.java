package dev.cumulus.examples.colouring;

/** A search state in the pool: the first {@code next} states coloured, at cost {@code cost}. */
final class Task {
    final int[] colours;
    final int next;
    final int cost;

    Task(int[] colours, int next, int cost) {
        this.colours = colours;
        this.next = next;
        this.cost = cost;
    }
}
