package conform;

/**
 * Arrays of every primitive type, of program objects and of an interface, made by main and filled element by
 * element by threads on other nodes (each thread its own elements); {@code System.arraycopy} between shared arrays
 * and {@code clone()} on another node; an array a thread made and published in a shared array.
 */
final class ArraysCase implements Conform.Case {
    interface Valued {
        int value();
    }

    record Cell(int value) implements Valued {
    }

    static final class Box implements Valued {
        int v;

        @Override
        public int value() {
            return v;
        }
    }

    static final int N = 40;

    static final class Store {
        final long[] longs = new long[N];
        final double[] doubles = new double[N];
        final boolean[] booleans = new boolean[N];
        final char[] chars = new char[N];
        final byte[] bytes = new byte[N];
        final short[] shorts = new short[N];
        final float[] floats = new float[N];
        final int[] ints = new int[N];
        final Box[] boxes = new Box[N];
        final Valued[] valued = new Valued[N];
        final Object[] objects = new Object[N];
        int[] copied;
        long[] cloned;
        char[][] published = new char[3][];
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Store s = new Store();
        for (int i = 0; i < N; i++) {
            s.boxes[i] = new Box();
        }
        int n = 3;
        Thread[] ts = new Thread[n];
        for (int k = 0; k < n; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                for (int i = me; i < N; i += n) {
                    s.longs[i] = Long.MAX_VALUE - i;
                    s.doubles[i] = i / 3.0;
                    s.booleans[i] = i % 3 == 1;
                    s.chars[i] = (char) ('a' + i % 26);
                    s.bytes[i] = (byte) (i * 9);
                    s.shorts[i] = (short) (i * 1000);
                    s.floats[i] = i * 0.5f;
                    s.ints[i] = i * i;
                    s.boxes[i].v = i + 1;
                    s.valued[i] = i % 2 == 0 ? new Cell(i) : s.boxes[i];
                    s.objects[i] = i % 3 == 0 ? Integer.valueOf(i) : i % 3 == 1 ? "s" + i : new Cell(-i);
                }
                s.published[me] = new char[] {(char) ('x' + me), '!'};
            });
        }
        Conform.startJoin(ts);
        Thread copier = new Thread(() -> {
            int[] c = new int[N + 2];
            System.arraycopy(s.ints, 0, c, 1, N);
            System.arraycopy(s.ints, 5, s.ints, 0, 10);
            s.copied = c;
            s.cloned = s.longs.clone();
            s.cloned[0] = 7;
        });
        Conform.startJoin(copier);
        long sum = 0;
        double dsum = 0;
        int trues = 0;
        StringBuilder chars = new StringBuilder();
        for (int i = 0; i < N; i++) {
            sum += s.longs[i] + s.bytes[i] + s.shorts[i] + s.ints[i] + s.boxes[i].v + s.valued[i].value();
            dsum += s.doubles[i] + s.floats[i];
            trues += s.booleans[i] ? 1 : 0;
            chars.append(s.chars[i]);
            chars.append(s.objects[i] instanceof Cell c ? "c" + c.value() : String.valueOf(s.objects[i]));
        }
        long csum = 0;
        for (int v : s.copied) {
            csum += v;
        }
        out.println("sum=" + sum + " dsum=" + dsum + " trues=" + trues + " csum=" + csum + " ints0=" + s.ints[0]
            + " cloned0=" + s.cloned[0] + " cloned1=" + s.cloned[1] + " longs0=" + s.longs[0]);
        out.println(chars);
        out.println(new String(s.published[0]) + new String(s.published[1]) + new String(s.published[2]));
    }
}
