package conform.bugs;

/**
 * Identity of strings and boxes that crossed nodes: a literal stored on another node is {@code ==} to the same
 * literal (JLS 3.10.5: literals are interned), and one object stored in two fields is one object. One JVM prints
 * {@code true true true}.
 */
public final class LiteralIdentity {
    static final class Holder {
        String literal;
        String a;
        String b;
        Integer x;
        Integer y;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        Thread t = new Thread(() -> {
            h.literal = "abc";
            String s = String.valueOf(args.length + 1000);
            h.a = s;
            h.b = s;
            Integer big = 5000;
            h.x = big;
            h.y = big;
        });
        t.start();
        t.join();
        System.out.println((h.literal == "abc") + " " + (h.a == h.b) + " " + (h.x == h.y));
    }
}
