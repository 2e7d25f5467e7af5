package conform;

/**
 * {@code Object.clone()} of program objects: a clone made on another node from an object it holds as a copy not
 * read there yet (with fields in a superclass and the subclass) is a new object with the original's values, and
 * writing it leaves the original alone; a clone made on the original's own node after the original was shared is a
 * distinct object there and on every other node; a program {@code clone()} returning {@code this}, called through
 * {@code super.clone()} on a copy, leaves the copy a copy (its writes reach the home).
 */
final class Cloning implements Conform.Case {
    static class Base implements Cloneable {
        int a;
        String label;

        Base(int a, String label) {
            this.a = a;
            this.label = label;
        }

        @Override
        public Base clone() {
            try {
                return (Base) super.clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static final class Derived extends Base {
        long b;
        int[] cells;

        Derived(int a, String label, long b) {
            super(a, label);
            this.b = b;
            this.cells = new int[] {1, 2, 3};
        }

        @Override
        public Derived clone() {
            Derived d = (Derived) super.clone();
            d.cells = cells.clone();
            return d;
        }
    }

    /** A value whose {@code clone()} returns {@code this} (an immutable object's idiom). */
    static class Same implements Cloneable {
        int v;

        Same(int v) {
            this.v = v;
        }

        @Override
        public Object clone() {
            return this;
        }
    }

    static final class SameSub extends Same {
        SameSub(int v) {
            super(v);
        }

        SameSub dup() {
            return (SameSub) super.clone();
        }
    }

    static final class Shared {
        SameSub same;
        Derived original;
        Derived cloneThere;
        Derived cloneHere;
        String seenThere;
        String seenOfHereClone;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shared s = new Shared();
        s.original = new Derived(5, "five", 50L);
        Thread there = new Thread(() -> {
            Derived c = s.original.clone();
            String before = c.a + " " + c.b + " " + c.label + " " + c.cells[0];
            c.a = 99;
            c.b = 990L;
            c.label = "clone";
            c.cells[0] = 100;
            s.seenThere = before + " -> " + c.a + " " + c.b + " " + c.label + " " + c.cells[0] + " | original "
                + s.original.a + " " + s.original.b + " " + s.original.label + " " + s.original.cells[0] + " same "
                + (c == s.original);
            s.cloneThere = c;
        });
        Conform.startJoin(there);
        out.println(s.seenThere);
        out.println("on main: original " + s.original.a + " " + s.original.b + " " + s.original.label + " "
            + s.original.cells[0] + ", clone " + s.cloneThere.a + " " + s.cloneThere.b + " " + s.cloneThere.label
            + " " + s.cloneThere.cells[0] + ", same " + (s.cloneThere == s.original));
        s.cloneHere = s.original.clone(); // the original has been shared: it has an id, which the clone must not keep
        s.cloneHere.a = 7;
        Thread reader = new Thread(() -> s.seenOfHereClone = s.cloneHere.a + " " + s.original.a + " same "
            + (s.cloneHere == s.original));
        Conform.startJoin(reader);
        out.println(s.seenOfHereClone + ", on main " + s.original.a);
        s.same = new SameSub(1);
        Thread sameThere = new Thread(() -> {
            SameSub d = s.same.dup(); // super.clone() returning the copy itself: it stays a copy
            synchronized (s) {
                d.v = 42;
            }
        });
        Conform.startJoin(sameThere);
        synchronized (s) {
            out.println("clone returning this: v " + s.same.v + " same " + (s.same.dup() == s.same));
        }
    }
}
