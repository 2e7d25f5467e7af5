package weave;

/** Violating: outside code writes a root's field, which no replica would see broadcast (CUM106). */
public class Peeker {
    private Peeker() {
    }

    public static void cheat(Tally t) {
        t.count = 42;
    }
}
