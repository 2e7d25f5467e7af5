package weave;

import dev.cumulus.Cloud;

/** Violating: mutable static state in a cloud class (CUM104). */
public class Refused implements Cloud.Root {
    static int counter = 0;
    private int value;

    public void bump() {
        value += ++counter;
    }

    public int value() {
        return value;
    }
}
