package corpus.cum109;

import dev.cumulus.Cloud;
import java.util.ArrayList;
import java.util.List;

class Mutable {
    int v;
}

record Pair(int[] values) {
}

/** Violating: objects inside a cloud that are neither cloud objects, arrays, immutable values nor collections. */
public class Holders implements Cloud.Root {
    private StringBuilder text = new StringBuilder(); // expect: CUM109
    private Object anything = null; // expect: CUM109
    private Mutable box = new Mutable(); // expect: CUM109
    private List<Mutable> boxes = new ArrayList<>(); // expect: CUM109
    private Pair pair = null; // expect: CUM109

    public int size() { return boxes.size(); } // classify: read
}
