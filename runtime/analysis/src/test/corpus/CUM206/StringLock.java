package corpus.cum206;

/** Violating: a string literal's monitor is node-local, so threads on different nodes lose increments. */
public class StringLock {
    private long count;

    public void add() {
        synchronized ("lock") { // expect: CUM206
            count++;
        }
    }
}
