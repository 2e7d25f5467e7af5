package conform.bugs;

/**
 * {@code Object.clone()} of a program object on a node that holds it as a copy not yet filled: the clone takes the
 * copy's raw fields and its {@code $cumulus$state} and {@code $cumulus$id}. Writing the clone marks the original's
 * entry dirty, so the thread then reads the original's unfilled 0 and its release writes that 0 over the original at
 * its home; the clone crosses nodes as the original ({@code ==}). One JVM prints
 * {@code clone 99 | original 5 5 same false}.
 */
public final class ObjectClone {
    static final class P implements Cloneable {
        int x;

        P(int x) {
            this.x = x;
        }

        @Override
        public P clone() {
            try {
                return (P) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static final class Holder {
        P original;
        P copy;
        int seen;
        int originalSeen;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        h.original = new P(5);
        Thread t = new Thread(() -> {
            P c = h.original.clone();
            c.x = 99;
            h.originalSeen = h.original.x;
            h.seen = c.x;
            h.copy = c;
        });
        t.start();
        t.join();
        System.out.println("clone " + h.seen + " | original " + h.originalSeen + " " + h.original.x + " same "
            + (h.copy == h.original));
    }
}
