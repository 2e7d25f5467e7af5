package conform.limits;

import java.lang.reflect.Field;

/**
 * Reflection on an object made on another node ({@code Field.getInt}, {@code Field.get}, {@code Field.setInt}): the
 * reads see the node's unfilled copy, the write is never written back. One JVM prints {@code 9 n 11}.
 */
public final class ReflectionOnCopy {
    static final class Holder {
        int value;
        String name;
        Holder next;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        h.next = new Holder();
        h.next.value = 9;
        h.next.name = "n";
        String[] seen = new String[1];
        Thread t = new Thread(() -> {
            try {
                Holder n = h.next;
                Field value = Holder.class.getDeclaredField("value");
                seen[0] = value.getInt(n) + " " + Holder.class.getDeclaredField("name").get(n);
                value.setInt(n, 11);
            } catch (ReflectiveOperationException e) {
                seen[0] = e.toString();
            }
        });
        t.start();
        t.join();
        System.out.println(seen[0] + " " + h.next.value);
    }
}
