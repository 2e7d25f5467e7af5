package shipped.remoteio;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A client whose process dies while its object on a server waits on it (RemoteIOSystemTest): the object prints, and
 * the client halts as that line reaches its console, so the server's call to the client never gets its answer.
 * {@code args[0]}: the marker file the object writes once its wait on the client was released.
 */
public final class DyingReaderMain {
    private DyingReaderMain() {
    }

    public static void main(String[] args) {
        PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8) {
            @Override
            public void write(byte[] b, int off, int len) {
                super.write(b, off, len);
                if (new String(b, off, len, StandardCharsets.UTF_8).contains("reading stdin")) {
                    Runtime.getRuntime().halt(7);
                }
            }
        };
        System.setOut(console); // before joining: the client's console is this stream
        Cluster cluster = Cluster.join();
        Echo echo = cluster.remoteNew(EchoImpl.class, Echo.class, "dying-reader", 0);
        Echo ticket = AsyncTicket.newTicket(echo);
        ticket.readOrMark(args[0]);
        AsyncTicket.getResult(ticket); // never returns: the process halts first
        Runtime.getRuntime().halt(8);
    }
}
