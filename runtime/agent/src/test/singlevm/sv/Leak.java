package sv;

import java.util.ArrayList;
import java.util.List;

/** A mutable JDK object in the shared statics: usable on node 0, an error naming it on any other node. */
public class Leak {
    static List<String> names;

    public static void setup() {
        names = new ArrayList<>();
        names.add("made on node 0");
    }

    public static int size() {
        return names.size();
    }
}
