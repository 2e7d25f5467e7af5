package weave;

import dev.cumulus.Cloud;

/** A root whose reads have no invoke: one reads its own fields only, one names another class (instanceof). */
public class Holder implements Cloud.Root {
    private Scaler node = new Scaler();
    private int[] arr = new int[0];

    public int size() {
        return arr.length;
    }

    public int loadedN() {
        return (Object) node instanceof Loaded l ? l.n : -1;
    }
}
