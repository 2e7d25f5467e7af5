package shipped.remoteio;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

/**
 * A client of RemoteIOSystemTest: {@code args} are a file to read, a file to write, a missing file, and the port of
 * a line echo server on this host.
 */
public final class RemoteIOMain {
    private RemoteIOMain() {
    }

    public static void main(String[] args) {
        try (Cluster cluster = Cluster.join()) {
            Echo a = cluster.remoteNew(EchoImpl.class, Echo.class, "echo-a", 1);
            Echo b = cluster.remoteNew(EchoImpl.class, Echo.class, "echo-b", 0);
            Echo ta = AsyncTicket.newTicket(a);
            Echo tb = AsyncTicket.newTicket(b);
            ta.say("A", 200); // both at once, on two servers
            tb.say("B", 200);
            AsyncTicket.getResult(ta);
            AsyncTicket.getResult(tb);
            System.out.println("read: " + a.read(args[0]));
            a.write(args[1], "written by echo-a");
            System.out.println("missing: " + a.read(args[2]));
            System.out.println("stdin: " + b.firstLineOfStdin());
            System.out.println("asked: " + b.ask("127.0.0.1", Integer.parseInt(args[3]), "ping"));
            System.out.println("own thread: " + a.fromOwnThread(args[0]));
        }
    }
}
