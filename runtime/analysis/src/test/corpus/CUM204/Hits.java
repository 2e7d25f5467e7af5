package corpus.cum204;

/** Violating: each node has its own enum constants, so each node counts its own hits. */
public enum Hits {
    LOW, HIGH;

    private int count = 0; // expect: CUM204

    public synchronized void hit() {
        count++;
    }

    public synchronized int count() {
        return count;
    }
}
