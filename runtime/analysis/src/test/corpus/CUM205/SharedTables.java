package corpus.cum205;

/** Conforming: the table is a class's static field, which all nodes share. */
public final class SharedTables {
    static final int[] SQUARES = new int[16];

    private SharedTables() {
    }

    /** The interface keeps only constants. */
    public interface Sizes {
        int SIZE = 16;
    }
}
