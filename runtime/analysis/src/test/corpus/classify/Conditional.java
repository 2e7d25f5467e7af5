package corpus.classify;

import dev.cumulus.Cloud;

/** Conditional writes count (Manta §3.1), also through a private helper. */
public class Conditional implements Cloud.Root {
    private int max = 0;
    private final int[] history = new int[16];

    public void offer(int x) { // classify: write
        if (x > max) max = x;
    }

    public void maybe(boolean b) { // classify: write
        if (b) {
            bump();
        }
    }

    private void bump() { // classify: write
        max++;
    }

    public void remember(int i, int x) { // classify: write
        history[i] = x;
    }

    public int max() { // classify: read
        return max;
    }

    public int sum() { // classify: read
        int s = 0;
        for (int h : history) {
            s += h;
        }
        return s;
    }
}
