package corpus.cum104;

import dev.cumulus.Cloud;

enum Mode { FAST, SAFE }

/** Conforming: static finals of immutable types, constants of other classes, enum constants. */
public class Constants implements Cloud.Root {
    static final int MAX = 100;
    static final String NAME = "constants";
    static final Mode DEFAULT_MODE = Mode.SAFE;
    private Mode mode = DEFAULT_MODE;
    private int value;

    public void set(int v) { // classify: write
        value = Math.min(v, Math.min(MAX, Integer.MAX_VALUE));
        mode = v > 0 ? Mode.FAST : Mode.SAFE;
    }

    public String describe() { // classify: read
        return NAME + ":" + value + ":" + mode;
    }
}
