package conform.bugs;

import java.util.ArrayList;

/**
 * A program class extending a JDK class with state (here ArrayList), filled on main's node and read by a thread on
 * another node: the JDK superclass's fields are not part of the shared object, so the copy is silently empty (no
 * error). One JVM prints {@code 2 3 [a, b]}.
 */
public final class ExtendsJdkClass {
    static final class Bag extends ArrayList<String> {
        int extra = 3;
    }

    public static void main(String[] args) throws Exception {
        Bag bag = new Bag();
        bag.add("a");
        bag.add("b");
        String[] seen = new String[1];
        Thread t = new Thread(() -> seen[0] = bag.size() + " " + bag.extra + " " + bag);
        t.start();
        t.join();
        System.out.println(seen[0]);
    }
}
