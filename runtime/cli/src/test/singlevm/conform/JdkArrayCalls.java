package conform;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.CharBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * JDK methods given arrays another node made or wrote, called on a thread of a node that holds them as copies:
 * {@code Arrays.toString}, {@code equals}, {@code hashCode}, {@code deepToString}, {@code binarySearch},
 * {@code copyOfRange}, {@code String.join}, {@code new String(char[])} read them as the program last wrote them
 * ({@code deepToString} of an array that holds itself as well);
 * {@code Arrays.sort} (whole, a range, with a comparator of program objects), {@code fill} of a range,
 * {@code setAll} (a recurrence reading what it wrote, and a generator that throws midway) and {@code parallelPrefix}
 * write them, and main on the arrays' own node sees the writes. Two workers
 * sort the halves of one shared array of 3,000 elements (more than a copy block), main merges them. Four workers
 * write their stripes of shared arrays through other JDK writers at once — {@code InputStream.readNBytes} at an
 * offset, {@code String.getChars}, {@code Random.nextBytes}, {@code Collection.toArray} into the array it is given
 * (which it returns), a {@code java.util.zip} stream's {@code readNBytes}, a read that fails midway inside the
 * program's {@code try} (the bytes read before stay), {@code Arrays.fill} of NaNs over NaNs (each with its own bits), the JDK's {@code read} that a program stream
 * inherits, {@code CharBuffer.getChars}, a program stream's own {@code read} called as {@code InputStream}'s, which keeps the
 * array it is given (the program's, not a clone) — and main sees every stripe, none lost to another's write-back.
 */
final class JdkArrayCalls implements Conform.Case {
    static final class Item {
        final int rank;
        final String name;

        Item(int rank, String name) {
            this.rank = rank;
            this.name = name;
        }
    }

    /** A comparator of the program's own (shared) class. */
    static final class ByRank implements Comparator<Item> {
        @Override
        public int compare(Item a, Item b) {
            return Integer.compare(a.rank, b.rank);
        }
    }

    static final class Shared {
        int[] numbers;
        long[] longs;
        double[] prefix;
        char[] chars;
        String[] words;
        int[][] grid;
        Item[] items;
        int[] big;
        long[] fib;
        String read;
        byte[] bytes;
        char[] text;
        byte[][] noise;
        String[][] lists;
        boolean[] sameArray;
        byte[] zipped;
        byte[] partial;
        byte[] counted;
        char[] buffered;
        byte[] kept;
        boolean[] keptSame;
        byte[][] diced;
        boolean[] dicedSame;
        double[] nans;
        byte[][] decoded;
        byte[][] deflated;
        byte[] inflated;
        char[] surrogates;
        int[][] pairs;
        Object flat;
    }

    /** The program's own stream: {@code read(byte[], int, int)} is {@code InputStream}'s, JDK code. */
    static final class Countdown extends InputStream {
        private int left;

        Countdown(int count) {
            left = count;
        }

        @Override
        public int read() {
            return left > 0 ? left-- : -1;
        }
    }

    /** The program's own stream whose {@code read(byte[], int, int)} keeps the array it is given. */
    static final class Keeping extends InputStream {
        byte[] kept;

        @Override
        public int read() {
            return -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            kept = b;
            b[off] = 9;
            return 1;
        }
    }

    /** A program interface whose default {@code nextBytes} (a JDK interface's method) keeps the array it is given. */
    interface KeepingGenerator extends java.util.random.RandomGenerator {
        void keep(byte[] b);

        @Override
        default void nextBytes(byte[] bytes) {
            keep(bytes);
            bytes[0] = 6;
        }
    }

    /** Reached as a {@code RandomGenerator}: its {@code nextBytes} is the program interface's default. */
    static final class Dice implements KeepingGenerator {
        byte[] kept;

        @Override
        public void keep(byte[] b) {
            kept = b;
        }

        @Override
        public long nextLong() {
            return 4;
        }
    }

    /** A stream that gives {@code count} bytes of {@code from}, then fails. */
    static InputStream failingAfter(byte[] from, int offset, int count) {
        return new SequenceInputStream(new ByteArrayInputStream(from, offset, count), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("gone");
            }
        });
    }

    /** An array that holds itself: {@code deepToString} prints {@code [...]} for it (on a node with copies too). */
    static Object[] holdingItself() {
        Object[] a = new Object[] {"self", null};
        a[1] = a;
        return a;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shared s = new Shared();
        s.numbers = new int[] {9, 3, 7, 1, 8, 2};
        s.longs = new long[8];
        s.prefix = new double[] {1, 2, 3, 4};
        s.chars = new char[] {'c', 'o', 'p', 'y'};
        s.words = new String[] {"x", "y", "z"};
        s.grid = new int[][] {{1, 2}, {3, 4}};
        s.items = new Item[] {new Item(3, "c"), new Item(1, "a"), new Item(2, "b")};
        s.pairs = new int[][] {{5, 6}, {7, 8}};
        s.flat = new long[] {4, 2};
        s.big = new int[3000];
        for (int i = 0; i < s.big.length; i++) {
            s.big[i] = (i * 7919) % 3001;
        }
        Thread reader = new Thread(() -> s.read = Arrays.toString(s.numbers) + " " + Arrays.equals(s.words,
            new String[] {"x", "y", "z"}) + " " + (Arrays.hashCode(s.numbers) == Arrays.hashCode(
            new int[] {9, 3, 7, 1, 8, 2})) + " " + Arrays.deepToString(s.grid) + " " + String.join("+", s.words) + " "
            + new String(s.chars) + " " + String.valueOf(s.chars, 1, 2) + " "
            + Arrays.toString(Arrays.copyOfRange(s.numbers, 1, 3)) + " " + Arrays.deepToString(holdingItself())
            + " " + Objects.deepEquals(s.pairs, new int[][] {{5, 6}, {7, 8}}) + " "
            + Objects.deepEquals(s.flat, new long[] {4, 2}));
        Conform.startJoin(reader);
        out.println(s.read);
        Thread writer = new Thread(() -> {
            Arrays.sort(s.numbers, 1, 5);
            Arrays.fill(s.longs, 2, 6, 42L);
            Arrays.setAll(s.longs, i -> s.longs[i] + i);
            Arrays.parallelPrefix(s.prefix, Double::sum);
            Arrays.sort(s.items, new ByRank());
            Arrays.sort(s.chars);
            s.read = "found " + Arrays.binarySearch(s.chars, 'p');
        });
        Conform.startJoin(writer);
        out.println(Arrays.toString(s.numbers) + " " + Arrays.toString(s.longs) + " " + Arrays.toString(s.prefix)
            + " " + s.items[0].name + s.items[1].name + s.items[2].name + " " + new String(s.chars) + " " + s.read);
        s.fib = new long[12];
        Thread recurrence = new Thread(() -> {
            Arrays.setAll(s.fib, i -> i < 2 ? i : s.fib[i - 1] + s.fib[i - 2]); // reads what it wrote before
            try {
                Arrays.setAll(s.longs, i -> {
                    if (i == 3) {
                        throw new IllegalStateException("stop at 3");
                    }
                    return 100 + i;
                });
            } catch (IllegalStateException e) {
                s.read = e.getMessage();
            }
        });
        Conform.startJoin(recurrence);
        out.println(Arrays.toString(s.fib) + " " + s.read + " " + Arrays.toString(s.longs));
        Thread ranges = new Thread(() -> s.read = Arrays.toString(Arrays.copyOfRange(s.big, 2990, 3003)) + " "
            + Arrays.binarySearch(s.big, 0, 3, s.big[1]) + " " + Arrays.equals(s.big, 1024, 1030, s.big, 1024, 1030));
        Conform.startJoin(ranges);
        out.println("ranges " + s.read);
        int half = s.big.length / 2;
        Thread low = new Thread(() -> Arrays.sort(s.big, 0, half));
        Thread high = new Thread(() -> Arrays.sort(s.big, half, s.big.length));
        Conform.startJoin(low, high);
        int[] merged = new int[s.big.length];
        for (int i = 0, a = 0, b = half; i < merged.length; i++) {
            merged[i] = b >= s.big.length || (a < half && s.big[a] <= s.big[b]) ? s.big[a++] : s.big[b++];
        }
        boolean sorted = true;
        long sum = 0;
        for (int i = 0; i < merged.length; i++) {
            sorted &= i == 0 || merged[i - 1] <= merged[i];
            sum += merged[i];
        }
        out.println("halves sorted and merged: " + sorted + " sum " + sum + " first " + merged[0] + " last "
            + merged[merged.length - 1]);
        jdkWriters(s, out);
    }

    private static void jdkWriters(Shared s, Conform.Out out) throws InterruptedException {
        int workers = 4;
        int stripe = 300;
        byte[] source = new byte[workers * stripe];
        for (int i = 0; i < source.length; i++) {
            source[i] = (byte) (i * 31 + 7);
        }
        s.bytes = new byte[source.length];
        s.text = new char[workers * 5];
        s.noise = new byte[workers][8];
        s.lists = new String[workers][3];
        s.sameArray = new boolean[workers];
        s.zipped = new byte[source.length];
        s.partial = new byte[source.length];
        s.counted = new byte[workers * 4];
        s.buffered = new char[workers * 3];
        s.kept = new byte[workers * 2];
        s.keptSame = new boolean[workers];
        s.diced = new byte[workers][2];
        s.dicedSame = new boolean[workers];
        s.nans = new double[workers * 2];
        s.decoded = new byte[workers][6];
        s.deflated = new byte[workers][stripe + 64];
        s.inflated = new byte[source.length];
        s.surrogates = new char[workers * 2];
        Arrays.fill(s.nans, Double.NaN);
        Thread[] threads = new Thread[workers];
        for (int k = 0; k < workers; k++) {
            int w = k;
            threads[k] = new Thread(() -> {
                try {
                    InputStream in = new ByteArrayInputStream(source, w * stripe, stripe);
                    int n = in.readNBytes(s.bytes, w * stripe, stripe);
                    if (n != stripe) {
                        throw new IllegalStateException("read " + n);
                    }
                    CheckedInputStream checked = new CheckedInputStream(new ByteArrayInputStream(source,
                        w * stripe, stripe), new CRC32());
                    checked.readNBytes(s.zipped, w * stripe, stripe); // a java.util.zip stream
                    new Countdown(w + 1).read(s.counted, w * 4, 4); // the JDK's read of a program stream
                    Keeping keeping = new Keeping();
                    InputStream asJdk = keeping;
                    asJdk.read(s.kept, w * 2, 2); // the program's own read, called as InputStream's
                    keeping.kept[w * 2 + 1] = 8;
                    s.keptSame[w] = keeping.kept == s.kept;
                    Dice dice = new Dice();
                    java.util.random.RandomGenerator generator = dice;
                    generator.nextBytes(s.diced[w]); // the program interface's default, called as the JDK's
                    dice.kept[1] = 7;
                    s.dicedSame[w] = dice.kept == s.diced[w];
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                try {
                    failingAfter(source, w * stripe, 5).readNBytes(s.partial, w * stripe, stripe);
                } catch (IOException e) {
                    s.partial[w * stripe + stripe - 1] = 1; // the 5 bytes read before the failure stay, as on one JVM
                }
                Arrays.fill(s.nans, w * 2, w * 2 + 2, Double.longBitsToDouble(0x7ff8000000000000L + w + 1));
                ("abcde".substring(w) + "vwxyz").getChars(0, 5, s.text, w * 5);
                CharBuffer.wrap("xyz" + w).getChars(1, 4, s.buffered, w * 3);
                new Random(w).nextBytes(s.noise[w]);
                Base64.getDecoder().decode(Base64.getEncoder().encode(new byte[] {(byte) w, 7, (byte) (w * 3)}),
                    s.decoded[w]);
                Deflater deflater = new Deflater();
                deflater.setInput(source, w * stripe, stripe);
                deflater.finish();
                int packed = deflater.deflate(s.deflated[w]);
                deflater.end();
                Inflater inflater = new Inflater();
                inflater.setInput(s.deflated[w], 0, packed);
                try {
                    inflater.inflate(s.inflated, w * stripe, stripe);
                } catch (DataFormatException e) {
                    throw new IllegalStateException(e);
                }
                inflater.end();
                Character.toChars(0x1F600 + w, s.surrogates, w * 2);
                String[] given = s.lists[w];
                s.sameArray[w] = List.of("p" + w, "q" + w).toArray(given) == given;
            });
        }
        Conform.startJoin(threads);
        boolean bytesRight = Arrays.equals(source, s.bytes);
        boolean noiseRight = true;
        for (int k = 0; k < workers; k++) {
            byte[] expected = new byte[8];
            new Random(k).nextBytes(expected);
            noiseRight &= Arrays.equals(expected, s.noise[k]);
        }
        out.println("jdk writers: bytes " + bytesRight + " text " + new String(s.text) + " noise " + noiseRight
            + " lists " + Arrays.deepToString(s.lists) + " same " + Arrays.toString(s.sameArray));
        StringBuilder partial = new StringBuilder();
        StringBuilder nans = new StringBuilder();
        for (int k = 0; k < workers; k++) {
            partial.append(Arrays.toString(Arrays.copyOfRange(s.partial, k * stripe, k * stripe + 6)))
                .append(s.partial[k * stripe + stripe - 1]);
            nans.append(' ').append(Long.toHexString(Double.doubleToRawLongBits(s.nans[k * 2 + 1])));
        }
        out.println("jdk writers: zip " + Arrays.equals(source, s.zipped) + " read before a failure " + partial
            + " NaNs" + nans + " counted " + Arrays.toString(s.counted) + " buffered " + new String(s.buffered)
            + " kept " + Arrays.toString(s.kept) + " " + Arrays.toString(s.keptSame) + " diced "
            + Arrays.deepToString(s.diced) + " " + Arrays.toString(s.dicedSame));
        out.println("jdk writers: base64 " + Arrays.deepToString(s.decoded) + " inflated "
            + Arrays.equals(source, s.inflated) + " surrogates " + new String(s.surrogates).codePoints()
            .mapToObj(Integer::toHexString).toList());
    }
}
