package svit;

/**
 * A large array touched sparsely on another node: main (node 0) makes a 4,000,000-element array and writes two
 * elements; a thread (node 1) reads them and writes a third; main prints what it reads after the join. Only the blocks
 * touched should move between the nodes, not the array.
 */
public final class BigArray {
    static final int LENGTH = 4_000_000;

    final long[] values = new long[LENGTH];
    long seen;

    public static void main(String[] args) throws InterruptedException {
        BigArray shared = new BigArray();
        shared.values[LENGTH - 1] = 42;
        shared.values[1000] = 7;
        Thread reader = new Thread(() -> {
            long sum = shared.values[LENGTH - 1] + shared.values[1000];
            shared.values[LENGTH / 2] = sum;
            shared.seen = sum;
        });
        reader.start();
        reader.join();
        System.out.println("big: seen=" + shared.seen + " written=" + shared.values[LENGTH / 2]);
    }
}
