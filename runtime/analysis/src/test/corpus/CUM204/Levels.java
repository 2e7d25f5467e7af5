package corpus.cum204;

/** Conforming: the enum's fields are final values; the counts live in an object of a program class. */
public enum Levels {
    LOW("low"), HIGH("high");

    private final String label;

    Levels(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /** The hits per level, indexed by ordinal(): a program object, shared by all nodes. */
    public static final class Counts {
        private final int[] hits = new int[values().length];

        public synchronized void hit(Levels level) {
            hits[level.ordinal()]++;
        }
    }
}
