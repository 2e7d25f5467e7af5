package conform;

/**
 * A parallel merge sort with threads and {@code join}: halves are sorted by new threads (round robin over the
 * nodes) down to a depth, then merged; the array and its scratch space are shared. Main checks order and checksum.
 */
final class MergeSort implements Conform.Case {
    static void sort(int[] a, int[] tmp, int lo, int hi, int depth) throws InterruptedException {
        if (hi - lo < 2) {
            return;
        }
        int mid = (lo + hi) >>> 1;
        if (depth > 0) {
            Thread left = new Thread(() -> {
                try {
                    sort(a, tmp, lo, mid, depth - 1);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            left.start();
            sort(a, tmp, mid, hi, depth - 1);
            left.join();
        } else {
            sort(a, tmp, lo, mid, 0);
            sort(a, tmp, mid, hi, 0);
        }
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < hi) {
            tmp[k++] = a[j++];
        }
        for (k = lo; k < hi; k++) {
            a[k] = tmp[k];
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        int n = 5000;
        int[] a = new int[n];
        long seed = 12345;
        long sum = 0;
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) (seed >>> 40) % 100_000;
            sum += a[i];
        }
        sort(a, new int[n], 0, n, 3);
        boolean sorted = true;
        long after = 0;
        long hash = 0;
        for (int i = 0; i < n; i++) {
            sorted &= i == 0 || a[i - 1] <= a[i];
            after += a[i];
            hash = hash * 31 + a[i];
        }
        out.println("sorted " + sorted + " same sum " + (sum == after) + " hash " + hash + " min " + a[0] + " max "
            + a[n - 1]);
    }
}
