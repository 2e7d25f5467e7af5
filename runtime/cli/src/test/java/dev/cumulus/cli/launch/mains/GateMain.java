package dev.cumulus.cli.launch.mains;

import dev.cumulus.Cluster;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Joins, prints "ready pid=PID", waits until the file named by its first argument exists (the test's gate), then
 * passes 20 barriers with its peers and every node calls node 0's echo; prints "done N" and ends.
 */
public final class GateMain {
    private GateMain() {
    }

    public interface Echo {
        String echo(String text);
    }

    public static void main(String[] args) throws Exception {
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            if (me == 0) {
                cluster.export(text -> "echo " + text, Echo.class, "echo");
            }
            cluster.barrier();
            System.out.println("ready pid=" + ProcessHandle.current().pid());
            Path gate = Path.of(args[0]);
            while (!Files.exists(gate)) {
                Thread.sleep(10); // the test opens the gate when it has looked at this node from outside
            }
            for (int i = 0; i < 20; i++) {
                cluster.barrier();
            }
            String answer = cluster.lookup("echo", Echo.class).echo("from " + me);
            cluster.barrier();
            System.out.println("done " + answer);
        }
    }
}
