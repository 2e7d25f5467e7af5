package dev.cumulus.cli;

import dev.cumulus.cli.standing.AdminActions;
import dev.cumulus.cli.standing.ClusterView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/**
 * Administration of a standing cluster: {@code cumulus ps}, {@code cumulus migrate}, {@code cumulus kill}. Each
 * authenticates with the cluster's admin credential (the owner-only state file); the work is in
 * {@code dev.cumulus.cli.standing.AdminActions}.
 */
final class AdminCommands {
    private AdminCommands() {
    }

    @Command(name = "ps", mixinStandardHelpOptions = true,
        description = {"Show a standing cluster: its servers (CPU, load, heap), the clients attached, and the clients' "
            + "objects (owner, class, server, calls, calls per second).",
            "Calls per second are measured between two looks at least a second apart (the first look: since the "
                + "server began)."})
    static final class Ps implements Callable<Integer> {
        @ParentCommand
        CumulusCli cli;

        @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
        String name;

        @Option(names = "--json", description = "Print JSON (cluster, servers, clients, objects) instead of tables.")
        boolean json;

        @Override
        public Integer call() {
            ClusterView view = AdminActions.view(name);
            if (json) {
                cli.out().println(view.toJson());
            } else {
                view.printTable(cli.out());
            }
            return 0;
        }
    }

    @Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Move a client's object to another server of a standing cluster (a delayed migration: running "
            + "calls finish first; calls meanwhile wait and then run on the new server).")
    static final class Migrate implements Callable<Integer> {
        @ParentCommand
        CumulusCli cli;

        @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
        String name;

        @Parameters(index = "1", paramLabel = "OBJECT", description = "The object's name, or #ID, as 'cumulus ps' "
            + "shows it.")
        String object;

        @Parameters(index = "2", paramLabel = "SERVER", description = "The server to move it to.")
        int server;

        @Override
        public Integer call() {
            AdminActions.migrate(name, object, server, cli.out());
            return 0;
        }
    }

    @Command(name = "kill", mixinStandardHelpOptions = true,
        description = "Put a client out of a standing cluster: every server refuses its calls and removes its "
            + "objects, and its process is stopped (SIGTERM, then SIGKILL after 10s).")
    static final class Kill implements Callable<Integer> {
        @ParentCommand
        CumulusCli cli;

        @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
        String name;

        @Parameters(index = "1", paramLabel = "CLIENT", description = "The client's id, as 'cumulus ps' shows it.")
        int client;

        @Override
        public Integer call() {
            AdminActions.kill(name, client, cli.out());
            return 0;
        }
    }
}
