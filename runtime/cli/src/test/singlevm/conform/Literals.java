package conform;

/**
 * String identity across nodes (JLS 3.10.5: literals and constants are interned): a literal a thread on another node
 * stores is {@code ==} to the same literal on main's node, one string stored in two fields is one string, and a
 * producer on another node ends a consumer with a sentinel constant compared by {@code ==} (a poison pill).
 */
final class Literals implements Conform.Case {
    static final String DONE = "done";

    static final class Shared {
        String literal;
        String a;
        String b;
        final String[] slots = new String[8];
        int put;
        int taken;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shared s = new Shared();
        Thread producer = new Thread(() -> {
            s.literal = "abc";
            String built = String.valueOf(s.slots.length * 1000);
            s.a = built;
            s.b = built;
            for (int i = 0; i < s.slots.length; i++) {
                synchronized (s) {
                    s.slots[i] = i == s.slots.length - 1 ? DONE : "item" + i;
                    s.put++;
                    s.notifyAll();
                }
            }
        });
        producer.start();
        int items = 0;
        while (true) {
            String item;
            synchronized (s) {
                while (s.taken == s.put) {
                    s.wait();
                }
                item = s.slots[s.taken++];
            }
            if (item == DONE) {
                break;
            }
            items++;
        }
        producer.join();
        out.println((s.literal == "abc") + " " + (s.a == s.b) + " " + s.a + " items " + items);
    }
}
