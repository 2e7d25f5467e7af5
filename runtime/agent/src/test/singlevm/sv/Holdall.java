package sv;

import java.util.HashMap;
import java.util.Map;

/**
 * An object made on node 0 whose fields hold mutable JDK objects next to plain values: another node reads the plain
 * ones, and only its reads of a JDK object (a woven read, a reflective one, {@code Object.clone}) are errors; a field
 * it overwrote holds its own value.
 */
public class Holdall implements Cloneable {
    static Holdall shared;

    int id = 7;
    String name = "plain";
    Map<String, Integer> counts = new HashMap<>();
    Object any = new StringBuilder("made on node 0");

    public static void setup() {
        shared = new Holdall();
        shared.counts.put("a", 1);
    }

    public static String plain() {
        return shared.id + " " + shared.name;
    }

    public static Object counts() {
        return shared.counts;
    }

    public static Object reflective() throws ReflectiveOperationException {
        return Holdall.class.getDeclaredField("counts").get(shared);
    }

    public static Object cloned() throws CloneNotSupportedException {
        return shared.copy();
    }

    public static boolean overwritten() {
        shared.any = null;
        return shared.any == null;
    }

    private Holdall copy() throws CloneNotSupportedException {
        return (Holdall) super.clone();
    }
}
