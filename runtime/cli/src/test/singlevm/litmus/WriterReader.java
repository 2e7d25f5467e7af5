package litmus;

/**
 * A litmus test of two actors, a writer (actor 0) and a reader (actor 1), where the reader keeps what it saw in a
 * {@link Seen} it homes, for the judge (the writer, after the round).
 */
abstract class WriterReader extends LitmusTest {
    Seen seen;

    WriterReader(String name, String... outcomes) {
        super(name, 2, outcomes);
    }

    /** Runs on the writer's node before the first round: allocates what the writer homes. */
    void setUpWriter() {
    }

    /** Runs on the reader's node before the first round: allocates what the reader homes besides {@link #seen}. */
    void setUpReader() {
    }

    abstract void write(int r) throws InterruptedException;

    abstract void read(int r) throws InterruptedException;

    @Override
    final void setUp(int actor) {
        if (actor == 0) {
            setUpWriter();
        } else {
            seen = new Seen();
            setUpReader();
        }
    }

    @Override
    final void play(int actor, int r) throws InterruptedException {
        if (actor == 0) {
            write(r);
        } else {
            read(r);
        }
    }

    /**
     * The judge of a test whose reader leaves in {@code seen.a} the lowest value it read after the writer's signal
     * ({@code signal} names it) and in {@code seen.b} the sum of what it read before: forbidden unless it saw round
     * {@code r}'s writes.
     */
    final void judgeLowest(int r, String signal) {
        if (seen.a == r) {
            allowed(0);
        } else {
            forbidden(r, "after " + signal + " the reader saw " + seen.a + " (read " + seen.b + " summed before)");
        }
    }

    /** Spins until volatile {@code f} holds at least {@code r}. */
    static void awaitAtLeast(Flag f, long r) {
        while (f.v < r) {
            Thread.onSpinWait();
        }
    }
}
