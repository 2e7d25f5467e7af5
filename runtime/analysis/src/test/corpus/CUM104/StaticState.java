package corpus.cum104;

import dev.cumulus.Cloud;
import java.util.ArrayList;
import java.util.List;

class Settings {
    static int factor = 2;
}

/** Violating: mutable statics in a cloud class, and a cloud method reading another class's mutable static. */
public class StaticState implements Cloud.Root {
    static int counter = 0; // expect: CUM104
    static final int[] TABLE = {1, 2, 3}; // expect: CUM104
    static final List<String> NAMES = new ArrayList<>(); // expect: CUM104
    static final int LIMIT = 10;
    private int value = 0;

    public int scaled() { return value * Settings.factor; } // expect: CUM104; classify: read

    public void bump() { value += LIMIT + counter; } // classify: write
}
