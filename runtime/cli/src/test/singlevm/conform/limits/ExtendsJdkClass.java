package conform.limits;

import java.util.ArrayList;

/**
 * A program class extending a JDK class with state (here {@code ArrayList}), filled by a thread on another node and
 * read by main: one JVM prints {@code 2 3 [a, b]}; the single-VM mode cannot carry the JDK superclass's fields and
 * must stop main with an error naming the class, its JDK superclass and the node that made it. The holder is locked
 * on the worker's node, so it stays homed there and main fetches it.
 */
public final class ExtendsJdkClass {
    static final class Bag extends ArrayList<String> {
        int extra = 3;
    }

    static final class Holder {
        Bag bag;
    }

    public static void main(String[] args) throws Exception {
        Holder[] made = new Holder[1];
        Thread t = new Thread(() -> {
            Holder h = new Holder();
            synchronized (h) {
                h.bag = new Bag();
                h.bag.add("a");
                h.bag.add("b");
            }
            made[0] = h;
        });
        t.start();
        t.join();
        Bag bag = made[0].bag;
        System.out.println(bag.size() + " " + bag.extra + " " + bag);
    }
}
