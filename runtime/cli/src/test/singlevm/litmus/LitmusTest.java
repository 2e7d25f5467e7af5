package litmus;

/**
 * A litmus test: its actors, what each allocates (and so homes), each actor's part of a round, and the judge that
 * sorts a round's outcome into allowed and forbidden (actor 0, after the round).
 */
abstract class LitmusTest {
    final String name;
    final Rendezvous rendezvous;
    private final int actors;
    private final String[] outcomes;
    private final long[] counts;
    private long forbidden;
    private long thrown;

    LitmusTest(String name, int actors, String... outcomes) {
        this.name = name;
        this.actors = actors;
        this.rendezvous = new Rendezvous(actors);
        this.outcomes = outcomes;
        this.counts = new long[outcomes.length];
    }

    /** Runs on actor {@code actor}'s node before the first round: allocates the objects that actor homes. */
    abstract void setUp(int actor) throws InterruptedException;

    /** Actor {@code actor}'s part of round {@code r} (rounds count from 1, so 0 is "nothing written yet"). */
    abstract void play(int actor, int r) throws InterruptedException;

    /** After round {@code r}: {@link #allowed} or {@link #forbidden} with what was seen. */
    abstract void judge(int r);

    final void allowed(int outcome) {
        counts[outcome]++;
    }

    final void forbidden(int r, String what) {
        if (forbidden++ < 5) {
            System.out.println("litmus " + name + " FORBIDDEN in round " + r + ": " + what);
        }
    }

    /** Actor {@code actor}'s part of round {@code r} threw {@code e}: counted as forbidden; the rounds go on. */
    final synchronized void threw(int actor, int r, RuntimeException e) {
        thrown++;
        System.out.println("litmus " + name + " FORBIDDEN in round " + r + ": actor " + actor + " threw " + e);
    }

    /** Starts the actors (threads of this program, so spread over the nodes), waits for them; the forbidden count. */
    long run(int rounds) throws InterruptedException {
        Actor[] started = new Actor[actors];
        for (int a = 0; a < actors; a++) {
            started[a] = new Actor(this, a, rounds);
            started[a].start();
        }
        for (Actor a : started) {
            a.join();
        }
        StringBuilder line = new StringBuilder("litmus " + name + ": " + rounds + " rounds,");
        for (int i = 0; i < outcomes.length; i++) {
            line.append(' ').append(outcomes[i]).append(' ').append(counts[i]).append(',');
        }
        long all;
        synchronized (this) {
            all = forbidden + thrown;
        }
        System.out.println(line.append(" forbidden ").append(all));
        return all;
    }
}
