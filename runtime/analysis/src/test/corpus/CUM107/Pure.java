package corpus.cum107;

import dev.cumulus.Cloud;

final class MathHelp {
    static int clamp(int v, int lo, int hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}

/** Conforming: deterministic helpers only. */
public class Pure implements Cloud.Root {
    private int value;
    private final StringBuilderFree text = new StringBuilderFree("x");

    public void set(int v) { // classify: write
        value = MathHelp.clamp(v, 0, 100);
    }

    public String show() { // classify: read
        return text.prefix() + Integer.toString(value);
    }
}

record StringBuilderFree(String prefix) {
}
