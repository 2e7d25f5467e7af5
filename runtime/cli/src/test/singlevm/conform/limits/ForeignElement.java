package conform.limits;

import java.util.HashMap;

/**
 * An {@code Object[]} holding a string and a HashMap, read by a thread on another node: its read of the string is no
 * error, its read of the map is, and the run stops naming the element, the map's class and the node that made it.
 * One JVM prints {@code seen plain {}}.
 */
public final class ForeignElement {
    public static void main(String[] args) throws Exception {
        Object[] cells = {"plain", new HashMap<String, Integer>()};
        String[] seen = new String[1];
        Thread t = new Thread(() -> {
            seen[0] = (String) cells[0];
            Object map = cells[1];
            seen[0] += " " + map;
        }, "reader");
        t.start();
        t.join();
        System.out.println("seen " + seen[0]);
    }
}
