package weave;

import dev.cumulus.Cloud;
import java.util.function.IntSupplier;

/**
 * Reads that reassign their parameters and then call out (the probe stands for a call that reaches a write at run
 * time and throws RestartAsWrite).
 */
public class Scaler implements Cloud.Node {
    private int factor = 3;

    public int scaled(int x, long y, String tag, IntSupplier probe) {
        x = x * factor;
        y = -1;
        tag = null;
        return x + (int) y + 1 + probe.getAsInt() + (tag == null ? 0 : 1);
    }

    public long wide(long a, double b, IntSupplier probe) {
        a = 0;
        b = 0;
        return a + (long) b + probe.getAsInt() + factor;
    }

    public double ratio(double v, IntSupplier probe) {
        v = v / factor;
        return v + probe.getAsInt();
    }

    public boolean positive(int v, IntSupplier probe) {
        v = -v;
        return v + probe.getAsInt() > 0;
    }

    public String[] names(String first, IntSupplier probe) {
        first = "changed";
        probe.getAsInt();
        return first.split(",");
    }

    public void check(int v, IntSupplier probe) {
        v++;
        if (probe.getAsInt() + v < 0) {
            throw new IllegalStateException();
        }
    }

    public int guarded(int v, IntSupplier probe) {
        try {
            v = v + probe.getAsInt();
        } catch (IllegalArgumentException e) {
            v = -1;
        }
        return v * factor;
    }
}
