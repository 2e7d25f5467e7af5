package corpus.cum205;

/** Violating: each node runs the interface's initializer and writes its own table. */
public interface Tables {
    int[] SQUARES = new int[16]; // expect: CUM205
    int SIZE = 16;
    String NAME = "squares";
}
