package sv;

import java.util.ArrayList;
import java.util.List;

/** Exercises every woven access on one node; the result must be the same woven and plain. */
public class Program {
    static long counter;
    static volatile int phase;
    static Box shared = new Box(3);

    public static String run() throws Exception {
        StringBuilder out = new StringBuilder();
        Box b = new Box(11);
        b.value = 5;
        b.big = 1L << 40;
        b.ratio = 0.25;
        b.letter = 'q';
        b.on = true;
        b.label = "x" + b.value;
        b.boxed = 99;
        b.next = new Box(12);
        b.next.value = b.value * 2;
        b.cells = new int[] {1, 2, 3};
        b.cells[1] += 40;
        b.stamp = 77;
        b.add(3);
        out.append(b.value).append(',').append(b.big).append(',').append(b.ratio).append(',').append(b.letter)
            .append(',').append(b.on).append(',').append(b.label).append(',').append(b.boxed).append(',')
            .append(b.next.value).append(',').append(b.cells[1]).append(',').append(b.stamp).append(',')
            .append(b.fixed).append(',').append(b.get()).append('\n');

        double[] ds = new double[5];
        long[] ls = new long[5];
        byte[] bs = new byte[5];
        boolean[] zs = new boolean[5];
        char[] cs = new char[5];
        short[] ss = new short[5];
        float[] fs = new float[5];
        Box[] boxes = new Box[5];
        for (int i = 0; i < 5; i++) {
            ds[i] = i * 1.5;
            ls[i] = i * 1000L;
            bs[i] = (byte) (i * 60);
            zs[i] = i % 2 == 0;
            cs[i] = (char) ('a' + i);
            ss[i] = (short) (i * 3000);
            fs[i] = i / 4f;
            boxes[i] = new Box(i);
        }
        for (int i = 0; i < 5; i++) {
            out.append(ds[i]).append(ls[i]).append(bs[i]).append(zs[i]).append(cs[i]).append(ss[i]).append(fs[i])
                .append(boxes[i].fixed).append(';');
        }
        int[][] grid = new int[3][4];
        grid[2][3] = 9;
        out.append(grid[2][3]).append(grid.length).append(grid[0].length).append('\n');

        Tree t = new Tree(4);
        out.append(Tree.made).append(',').append(t.sum).append(',').append(Tree.KIND).append(',')
            .append(Tree.PRIMES[3]).append(',').append(t.left.right.fixed).append('\n');

        Object lock = new Object();
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    synchronized (lock) {
                        counter++;
                    }
                    shared.add(1);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        Slot slot = new Slot();
        Thread producer = new Thread(() -> {
            try {
                for (int i = 1; i <= 100; i++) {
                    slot.put(i);
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        producer.start();
        long sum = 0;
        for (int i = 1; i <= 100; i++) {
            sum += slot.take();
        }
        producer.join();
        phase = 2;
        out.append(counter).append(',').append(shared.get()).append(',').append(sum).append(',').append(phase);
        synchronized (Program.class) {
            out.append(",static-sync");
        }
        return out.toString();
    }
}
