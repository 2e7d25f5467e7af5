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

    /** Spins until volatile {@code f} holds at least {@code r}. */
    static void awaitAtLeast(Flag f, long r) {
        while (f.v < r) {
            Thread.onSpinWait();
        }
    }
}
