package litmus;

/**
 * {@code Thread.start} and {@code join} edges: main writes a plain field of an object the previous round's thread
 * homes, then starts a thread (on another node), which must see it; that thread writes the field's neighbour and a
 * new object of its own, which main must see after {@code join}. Forbidden: either side missing the other's writes.
 */
final class StartJoin {
    private Pair last = new Pair();
    private long forbidden;

    static final class Child extends Thread {
        private final StartJoin test;
        private final Pair shared;
        private final long round;
        long sawX;

        Child(StartJoin test, Pair shared, long round) {
            super("start-join-" + round);
            this.test = test;
            this.shared = shared;
            this.round = round;
        }

        @Override
        public void run() {
            sawX = shared.x;
            shared.y = round;
            Pair next = new Pair();
            next.x = round;
            test.last = next;
        }
    }

    long run(int rounds) throws InterruptedException {
        long seen = 0;
        for (int r = 1; r <= rounds; r++) {
            Pair shared = last;
            shared.x = r;
            Child c = new Child(this, shared, r);
            c.start();
            c.join();
            if (c.sawX != r || shared.y != r || last.x != r || c.isAlive()) {
                if (forbidden++ < 5) {
                    System.out.println("litmus start-join FORBIDDEN in round " + r + ": the thread saw x=" + c.sawX
                        + ", main saw y=" + shared.y + " and the thread's object " + last.x + " after join");
                }
            } else {
                seen++;
            }
        }
        System.out.println("litmus start-join: " + rounds + " rounds, saw every write " + seen + ", forbidden "
            + forbidden);
        return forbidden;
    }
}
