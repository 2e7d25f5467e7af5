package litmus;

/**
 * Store buffering with volatiles: A writes x then reads y, B writes y then reads x (x homed by A, y by B). Forbidden:
 * both read the value from before the round.
 */
final class StoreBuffering extends LitmusTest {
    private Flag x;
    private Flag y;
    private Seen seenA;
    private Seen seenB;

    StoreBuffering() {
        super("sb-volatile", 2, "both saw the other's write", "only A saw B's", "only B saw A's");
    }

    @Override
    void setUp(int actor) {
        if (actor == 0) {
            x = new Flag();
            seenA = new Seen();
        } else {
            y = new Flag();
            seenB = new Seen();
        }
    }

    @Override
    void play(int actor, int r) {
        if (actor == 0) {
            x.v = r;
            seenA.a = y.v;
        } else {
            y.v = r;
            seenB.a = x.v;
        }
    }

    @Override
    void judge(int r) {
        boolean a = seenA.a == r;
        boolean b = seenB.a == r;
        if (a && b) {
            allowed(0);
        } else if (a) {
            allowed(1);
        } else if (b) {
            allowed(2);
        } else {
            forbidden(r, "A read y=" + seenA.a + ", B read x=" + seenB.a);
        }
    }
}
