package corpus.cum101;

import dev.cumulus.Cloud;

/** Violating: a class is either a root or a node, never both (also through a superclass). */
public class BothKinds implements Cloud.Root, Cloud.Node { // expect: CUM101
    private int value;

    public int value() { // classify: read
        return value;
    }
}

class RootBase implements Cloud.Root {
    private int hits;

    public void hit() { // classify: write
        hits++;
    }
}

class Indirect extends RootBase implements Cloud.Node { // expect: CUM101
}
