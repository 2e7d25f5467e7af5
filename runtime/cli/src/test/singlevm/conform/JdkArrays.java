package conform;

import java.util.Arrays;

/**
 * JDK code on program arrays where the single-VM mode supports it: {@code Arrays.fill/sort/copyOf/equals/hashCode/
 * toString} and {@code new String(char[])} on a thread's own new arrays before it publishes them, and on main's
 * arrays on main's node after the threads that wrote them were joined.
 */
final class JdkArrays implements Conform.Case {
    static final class Shelf {
        int[] sortedByThread;
        long[] filledByThread;
        String fromChars;
        int hashByThread;
        boolean equalByThread;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shelf shelf = new Shelf();
        int[] mainInts = new int[20];
        Thread maker = new Thread(() -> {
            int[] a = {9, 3, 7, 1, 8, 2, 6};
            Arrays.sort(a);
            int[] b = Arrays.copyOf(a, 9);
            shelf.sortedByThread = b;
            long[] f = new long[5];
            Arrays.fill(f, 42L);
            Arrays.fill(f, 1, 3, -1L);
            shelf.filledByThread = f;
            char[] cs = {'h', 'e', 'l', 'l', 'o'};
            shelf.fromChars = new String(cs, 1, 3);
            shelf.hashByThread = Arrays.hashCode(a);
            shelf.equalByThread = Arrays.equals(a, new int[] {1, 2, 3, 6, 7, 8, 9});
            for (int i = 0; i < 10; i++) {
                mainInts[i] = 100 - i;
            }
        });
        Thread other = new Thread(() -> {
            for (int i = 10; i < 20; i++) {
                mainInts[i] = i * 3;
            }
        });
        Conform.startJoin(maker, other);
        int[] sortedCopy = mainInts.clone();
        Arrays.sort(sortedCopy);
        out.println(Arrays.toString(shelf.sortedByThread) + " " + Arrays.toString(shelf.filledByThread) + " "
            + shelf.fromChars + " " + shelf.hashByThread + " " + shelf.equalByThread);
        out.println(Arrays.toString(mainInts) + " " + Arrays.hashCode(mainInts) + " " + Arrays.toString(sortedCopy)
            + " " + Arrays.equals(Arrays.copyOfRange(mainInts, 0, 3), new int[] {100, 99, 98}));
    }
}
