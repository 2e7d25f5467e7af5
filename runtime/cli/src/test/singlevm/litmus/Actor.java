package litmus;

/** One actor of a litmus test: allocates what it homes, then plays every round between two rendezvous. */
final class Actor extends Thread {
    private final LitmusTest test;
    private final int index;
    private final int rounds;

    Actor(LitmusTest test, int index, int rounds) {
        super(test.name + "-" + index);
        this.test = test;
        this.index = index;
        this.rounds = rounds;
    }

    @Override
    public void run() {
        System.out.println("litmus " + test.name + " actor " + index);
        try {
            test.setUp(index);
            test.rendezvous.await();
            for (int r = 1; r <= rounds; r++) {
                test.rendezvous.await();
                try {
                    test.play(index, r);
                } catch (RuntimeException e) {
                    test.threw(index, r, e);
                }
                test.rendezvous.await();
                if (index == 0) {
                    test.judge(r);
                }
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(getName() + " interrupted", e);
        }
    }
}
