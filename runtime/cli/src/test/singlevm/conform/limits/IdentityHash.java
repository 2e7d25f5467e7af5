package conform.limits;

/**
 * Identity hash codes asked on another node (per node in the single-VM mode, documented): a program object's inherited
 * {@code hashCode()}, an enum constant's and a {@code Class}'s, computed by a thread on another node and compared with
 * main's: one JVM prints {@code same true true true}.
 */
public final class IdentityHash {
    enum Color {
        RED
    }

    static final class Thing {
        int x;
    }

    static final class Seen {
        int thing;
        int color;
        int type;
    }

    public static void main(String[] args) throws Exception {
        Thing t = new Thing();
        Seen s = new Seen();
        Thread other = new Thread(() -> {
            s.thing = t.hashCode();
            s.color = Color.RED.hashCode();
            s.type = Thing.class.hashCode();
        }, "hasher");
        other.start();
        other.join();
        System.out.println("same " + (s.thing == t.hashCode()) + " " + (s.color == Color.RED.hashCode()) + " "
            + (s.type == Thing.class.hashCode()));
    }
}
