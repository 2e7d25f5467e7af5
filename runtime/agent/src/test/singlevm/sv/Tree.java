package sv;

/** A subclass adding fields to a shared superclass, and statics of its own. */
public class Tree extends Box {
    static int made;
    static final String KIND = "tree";
    static final int[] PRIMES = {2, 3, 5, 7};
    Tree left;
    Tree right;
    long sum;

    Tree(int depth) {
        super(depth);
        made++;
        if (depth > 0) {
            left = new Tree(depth - 1);
            right = new Tree(depth - 1);
        }
        sum = depth + (left == null ? 0 : left.sum + right.sum);
    }
}
