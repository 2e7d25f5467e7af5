package litmus;

/**
 * Independent reads of independent writes with volatiles: W1 writes x, W2 writes y (each homed by its writer); R1 reads
 * x then y, R2 reads y then x. Forbidden: the readers disagree on the order of the two writes (R1 saw x new and y old,
 * R2 saw y new and x old).
 */
final class IndependentReads extends LitmusTest {
    private Flag x;
    private Flag y;
    private Seen seen1;
    private Seen seen2;

    IndependentReads() {
        super("iriw-volatile", 4, "consistent");
    }

    @Override
    void setUp(int actor) {
        switch (actor) {
            case 0 -> x = new Flag();
            case 1 -> y = new Flag();
            case 2 -> seen1 = new Seen();
            default -> seen2 = new Seen();
        }
    }

    @Override
    void play(int actor, int r) {
        switch (actor) {
            case 0 -> x.v = r;
            case 1 -> y.v = r;
            case 2 -> {
                seen1.a = x.v;
                seen1.b = y.v;
            }
            default -> {
                seen2.a = y.v;
                seen2.b = x.v;
            }
        }
    }

    @Override
    void judge(int r) {
        if (seen1.a == r && seen1.b < r && seen2.a == r && seen2.b < r) {
            forbidden(r, "R1 saw x new, y old; R2 saw y new, x old");
        } else {
            allowed(0);
        }
    }
}
