package dev.cumulus.examples.tsp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.stream.IntStream;

/**
 * The part of TSP all three versions share (Manta §4.1): the cities, the job list of partial tours, the
 * branch-and-bound search of one job, and the sequential solver the results are checked against.
 *
 * <p>Cities are random points in a 1000 × 1000 square (from a seed); distances are rounded Euclidean. A job is a
 * partial tour that starts at city 0 and fixes the next {@link #JOB_DEPTH} cities; a worker completes it by depth-first
 * search, pruning a partial tour when its length plus a lower bound for the rest is not below the current minimum.
 * Only how that minimum is read and written differs between the versions.
 */
public final class TspProblem {
    /** Cities fixed by a job, after city 0. */
    public static final int JOB_DEPTH = 2;

    private final int[][] distance;
    private final int[][] nearest;
    private final int[] cheapestExit;

    private TspProblem(int[][] distance) {
        int n = distance.length;
        this.distance = distance;
        this.nearest = new int[n][];
        this.cheapestExit = new int[n];
        for (int c = 0; c < n; c++) {
            int from = c;
            nearest[c] = IntStream.range(0, n).filter(d -> d != from).boxed()
                .sorted((a, b) -> Integer.compare(distance[from][a], distance[from][b]))
                .mapToInt(Integer::intValue).toArray();
            cheapestExit[c] = distance[c][nearest[c][0]];
        }
    }

    /** {@code cities} random cities from {@code seed}; every node that calls this gets the same problem. */
    public static TspProblem random(int cities, long seed) {
        if (cities < JOB_DEPTH + 2) {
            throw new IllegalArgumentException("need at least " + (JOB_DEPTH + 2) + " cities, not " + cities);
        }
        SplittableRandom random = new SplittableRandom(seed);
        int[] x = new int[cities];
        int[] y = new int[cities];
        for (int c = 0; c < cities; c++) {
            x[c] = random.nextInt(1000);
            y[c] = random.nextInt(1000);
        }
        int[][] d = new int[cities][cities];
        for (int a = 0; a < cities; a++) {
            for (int b = 0; b < cities; b++) {
                d[a][b] = (int) Math.round(Math.hypot(x[a] - x[b], y[a] - y[b]));
            }
        }
        return new TspProblem(d);
    }

    public int cities() {
        return distance.length;
    }

    /** The jobs: every partial tour {@code 0, a, b, ...} of {@link #JOB_DEPTH} further cities, nearest first. */
    public List<int[]> jobs() {
        List<int[]> jobs = new ArrayList<>();
        int[] tour = new int[JOB_DEPTH + 1];
        boolean[] used = new boolean[cities()];
        used[0] = true;
        collectJobs(tour, 1, used, jobs);
        return jobs;
    }

    private void collectJobs(int[] tour, int depth, boolean[] used, List<int[]> jobs) {
        if (depth == tour.length) {
            jobs.add(tour.clone());
            return;
        }
        for (int next : nearest[tour[depth - 1]]) {
            if (!used[next]) {
                used[next] = true;
                tour[depth] = next;
                collectJobs(tour, depth + 1, used, jobs);
                used[next] = false;
            }
        }
    }

    /**
     * Completes the partial tour {@code job} by branch and bound. {@code minimum} is read at every node of the search
     * tree before pruning; {@code better} is called with each complete tour shorter than what {@code minimum} said.
     *
     * @return the number of search-tree nodes visited
     */
    public long search(int[] job, IntSupplier minimum, IntConsumer better) {
        int n = cities();
        int[] tour = Arrays.copyOf(job, n);
        boolean[] used = new boolean[n];
        int length = 0;
        int bound = 0;
        for (int c = 0; c < n; c++) {
            bound += cheapestExit[c];
        }
        for (int i = 0; i < job.length; i++) {
            used[job[i]] = true;
            bound -= cheapestExit[job[i]];
            if (i > 0) {
                length += distance[job[i - 1]][job[i]];
            }
        }
        long[] visited = new long[1];
        expand(tour, job.length, used, length, bound + cheapestExit[job[job.length - 1]], minimum, better, visited);
        return visited[0];
    }

    /** {@code rest}: a lower bound on the length still to go (the cheapest exit of every city not yet left). */
    private void expand(int[] tour, int depth, boolean[] used, int length, int rest, IntSupplier minimum,
                        IntConsumer better, long[] visited) {
        visited[0]++;
        int min = minimum.getAsInt();
        if (length + rest >= min) {
            return;
        }
        int last = tour[depth - 1];
        if (depth == tour.length) {
            int total = length + distance[last][0];
            if (total < min) {
                better.accept(total);
            }
            return;
        }
        for (int next : nearest[last]) {
            if (!used[next]) {
                used[next] = true;
                tour[depth] = next;
                expand(tour, depth + 1, used, length + distance[last][next], rest - cheapestExit[last], minimum,
                    better, visited);
                used[next] = false;
            }
        }
    }

    /** The optimum by sequential branch and bound over the same jobs; the reference the versions are checked with. */
    public int solveSequentially() {
        int[] best = {Integer.MAX_VALUE};
        for (int[] job : jobs()) {
            search(job, () -> best[0], length -> best[0] = Math.min(best[0], length));
        }
        return best[0];
    }

    /** The optimum by trying every tour (no pruning); only for checking the solver on a few cities. */
    int bruteForce() {
        int[] tour = new int[cities()];
        boolean[] used = new boolean[cities()];
        used[0] = true;
        return permute(tour, 1, used, 0);
    }

    private int permute(int[] tour, int depth, boolean[] used, int length) {
        if (depth == tour.length) {
            return length + distance[tour[depth - 1]][0];
        }
        int best = Integer.MAX_VALUE;
        for (int c = 1; c < tour.length; c++) {
            if (!used[c]) {
                used[c] = true;
                tour[depth] = c;
                best = Math.min(best, permute(tour, depth + 1, used, length + distance[tour[depth - 1]][c]));
                used[c] = false;
            }
        }
        return best;
    }
}
