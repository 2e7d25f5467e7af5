package litmus;

/**
 * Final field publication through a data race: the writer stores a new object with final fields (one of them an
 * array filled in the constructor) into a plain field of an object main homes, then writes a volatile of its own (a
 * release that carries the store home). The reader looks at the plain field, then at that volatile, again and again:
 * a look that finds the object before the volatile said so found it through the race, and only final fields are
 * promised then. Forbidden: a final field, or an element of the final array, other than the constructor wrote; or not
 * finding the object once the volatile said it was there.
 */
final class FinalFields extends WriterReader {
    private final Holder holder = new Holder();
    private Flag written;

    FinalFields() {
        super("final-fields", "saw it through the race", "saw it after the volatile");
    }

    static final class Holder {
        Fin ref;
    }

    static final class Fin {
        final long round;
        final long check;
        final long[] parts;

        Fin(long round) {
            this.round = round;
            this.check = round * 31 + 7;
            this.parts = new long[] {round, -round};
        }
    }

    @Override
    void setUpWriter() {
        written = new Flag();
    }

    @Override
    void write(int r) {
        holder.ref = new Fin(r);
        written.v = r;
    }

    @Override
    void read(int r) {
        while (true) {
            if (look(r, 0)) {
                return;
            }
            if (written.v >= r) {
                if (!look(r, 1)) {
                    seen.a = 3;
                }
                return;
            }
        }
    }

    /** One look at the plain field; true if it held round {@code r}'s object (what it held is in {@code seen}). */
    private boolean look(int r, int outcome) {
        Fin f = holder.ref;
        if (f == null || f.round != r) {
            return false;
        }
        long[] parts = f.parts;
        boolean whole = f.check == r * 31L + 7 && parts != null && parts[0] == r && parts[1] == -r;
        seen.a = whole ? outcome : 2;
        seen.b = f.check;
        seen.c = parts == null ? 0 : parts[0];
        seen.d = parts == null ? 0 : parts[1];
        return true;
    }

    @Override
    void judge(int r) {
        switch ((int) seen.a) {
            case 0, 1 -> allowed((int) seen.a);
            case 2 -> forbidden(r, "the reader saw round " + r + "'s object with check " + seen.b + " (" + (r * 31L + 7)
                + " written) and parts " + seen.c + ", " + seen.d + " (" + r + ", " + -r + " written; 0, 0: no array)");
            default -> forbidden(r, "the volatile said round " + r + "'s object was there, but the field did not "
                + "hold it");
        }
    }
}
