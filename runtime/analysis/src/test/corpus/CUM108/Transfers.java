package corpus.cum108;

import dev.cumulus.Cloud;
import dev.cumulus.Transferable;
import java.util.List;
import java.util.Map;

record Point(int x, int y) {
}

enum Color { RED, GREEN }

@Transferable
class Payload {
    int a;
}

/** Conforming: primitives, strings, arrays, records, enums, collections, @Transferable classes and roots. */
public class Transfers implements Cloud.Root {
    private int sum;

    public void add(int a, long b, String s, int[][] grid) { sum += a + (int) b + s.length() + grid.length; } // classify: write

    public Point at(Point p, Color c) { return new Point(p.x() + sum, c.ordinal()); } // classify: read

    public List<String> names(Map<String, List<Integer>> m) { return List.copyOf(m.keySet()); } // classify: read

    public Payload payload(Payload p) { return p; } // classify: read

    public int merge(Transfers other) { return sum + other.sum; } // classify: read

    @Override
    public boolean equals(Object o) { return o == this; } // classify: read

    @Override
    public int hashCode() { return sum; } // classify: read
}
