package dev.cumulus.internal.codec;

import static dev.cumulus.internal.codec.CodecTestSupport.CODEC;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Prints encode and decode throughput for a double[512][2048] (8 MiB) next to a plain memcpy of the same bytes. No
 * timing assertions (the machine is shared); it checks the decoded matrix equals the original.
 */
@Timeout(120)
class CodecThroughputTest {
    private static final int ROWS = 512;
    private static final int COLUMNS = 2048;
    private static final int ROUNDS = 12;

    @Test
    void matrixOfDoublesEncodesAndDecodesAtAboutMemcpySpeed() {
        double[][] matrix = new double[ROWS][COLUMNS];
        Random random = new Random(1);
        for (double[] row : matrix) {
            for (int j = 0; j < COLUMNS; j++) {
                row[j] = random.nextDouble();
            }
        }
        measure("heap buffer", matrix, new ExpandableArrayBuffer(ROWS * COLUMNS * 8 + 65536));
        measure("direct buffer", matrix, new ExpandableDirectByteBuffer(ROWS * COLUMNS * 8 + 65536));
    }

    private static void measure(String label, double[][] matrix, MutableDirectBuffer buffer) {
        long payloadBytes = (long) ROWS * COLUMNS * 8;
        int end = 0;
        Object decoded = null;
        long encodeNs = Long.MAX_VALUE;
        long decodeNs = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = System.nanoTime();
            end = CODEC.write(buffer, 0, matrix, "matrix");
            long t1 = System.nanoTime();
            decoded = CODEC.reader(buffer, 0, end).read();
            long t2 = System.nanoTime();
            encodeNs = Math.min(encodeNs, t1 - t0);
            decodeNs = Math.min(decodeNs, t2 - t1);
        }
        assertTrue(Arrays.deepEquals(matrix, (double[][]) decoded));
        assertTrue(end - payloadBytes < 512 * 16, "overhead per row stays small: " + (end - payloadBytes));

        // the baseline: the same 512 row copies of 16 KiB with System.arraycopy, into one big array
        byte[][] rows = new byte[ROWS][COLUMNS * 8];
        byte[] target = new byte[(int) payloadBytes];
        long copyNs = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < ROWS; i++) {
                System.arraycopy(rows[i], 0, target, i * COLUMNS * 8, COLUMNS * 8);
            }
            copyNs = Math.min(copyNs, System.nanoTime() - t0);
        }
        assertEquals(payloadBytes, target.length);
        System.out.printf("codec throughput (%s, double[%d][%d], %d bytes, best of %d): encode %.0f MB/s,"
                + " decode %.0f MB/s, row-wise arraycopy %.0f MB/s%n", label, ROWS, COLUMNS, end, ROUNDS,
            mbPerSecond(payloadBytes, encodeNs), mbPerSecond(payloadBytes, decodeNs),
            mbPerSecond(payloadBytes, copyNs));
    }

    private static double mbPerSecond(long bytes, long ns) {
        return bytes / 1e6 / (ns / 1e9);
    }
}
