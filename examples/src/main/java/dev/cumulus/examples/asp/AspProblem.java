package dev.cumulus.examples.asp;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The part of ASP all three versions share (Manta §4.2): the random graph, the row-wise distribution of the distance
 * matrix, one iteration of Floyd's algorithm on a node's rows, and the sequential Floyd–Warshall the results are
 * checked against.
 */
public final class AspProblem {
    /** "No path": large, yet two of them add up without overflow. */
    public static final int INFINITY = Integer.MAX_VALUE / 2;

    private final int[][] distance;

    private AspProblem(int[][] distance) {
        this.distance = distance;
    }

    /** A random directed graph on {@code n} vertices: each edge present with probability 1/8, weights 1 to 100. */
    public static AspProblem random(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[][] d = new int[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                d[i][j] = i == j ? 0 : random.nextInt(8) == 0 ? 1 + random.nextInt(100) : INFINITY;
            }
        }
        return new AspProblem(d);
    }

    public int size() {
        return distance.length;
    }

    /** The first row of node {@code node}'s block (rows are split into {@code nodes} contiguous blocks). */
    public static int firstRow(int node, int nodes, int n) {
        return (int) ((long) node * n / nodes);
    }

    /** The node whose block holds row {@code k}. */
    public static int owner(int k, int nodes, int n) {
        return (int) (((long) (k + 1) * nodes - 1) / n);
    }

    /** Copies of the edge weights of rows {@code from} (inclusive) to {@code to} (exclusive). */
    public int[][] rows(int from, int to) {
        int[][] rows = new int[to - from][];
        for (int i = from; i < to; i++) {
            rows[i - from] = distance[i].clone();
        }
        return rows;
    }

    /** Iteration {@code k} of Floyd's algorithm on a block of rows, given row {@code k}. */
    public static void relax(int[][] rows, int k, int[] rowK) {
        for (int[] row : rows) {
            int viaK = row[k];
            if (viaK >= INFINITY) {
                continue;
            }
            for (int j = 0; j < row.length; j++) {
                int d = viaK + rowK[j];
                if (d < row[j]) {
                    row[j] = d;
                }
            }
        }
    }

    /** All shortest paths by sequential Floyd–Warshall. */
    public int[][] floydWarshall() {
        int[][] d = rows(0, size());
        for (int k = 0; k < size(); k++) {
            relax(d, k, d[k].clone());
        }
        return d;
    }

    /** How many of {@code rows} (starting at row {@code from}) differ from Floyd–Warshall's result. */
    public int wrongRows(int[][] rows, int from) {
        int[][] expected = floydWarshall();
        int wrong = 0;
        for (int i = 0; i < rows.length; i++) {
            if (!Arrays.equals(rows[i], expected[from + i])) {
                wrong++;
            }
        }
        return wrong;
    }
}
