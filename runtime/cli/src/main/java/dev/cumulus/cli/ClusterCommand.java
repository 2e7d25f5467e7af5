package dev.cumulus.cli;

import dev.cumulus.cli.standing.ClusterRecord;
import dev.cumulus.cli.standing.ClusterRegistry;
import dev.cumulus.cli.standing.ClusterStop;
import dev.cumulus.cli.standing.KeeperProcess;
import dev.cumulus.cli.standing.StandingKeeper;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.launch.LaunchException;
import dev.cumulus.cli.standing.ServerHosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.cumulus.internal.service.ClientAdmission;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code cumulus cluster}: standing clusters that many client programs use ({@code start}, {@code stop},
 * {@code list}; {@code serve} is the keeper's own, started by {@code start}). The machinery is in
 * {@code dev.cumulus.cli.standing}.
 */
@Command(name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Standing clusters: server nodes that stay up and serve client programs "
        + "('cumulus run --attach NAME').",
    subcommands = {ClusterCommand.Start.class, ClusterCommand.Stop.class, ClusterCommand.ListClusters.class,
        ClusterGrant.class, ClusterCommand.Serve.class})
final class ClusterCommand implements Callable<Integer> {
    static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);

    @ParentCommand
    CumulusCli cli;

    @Override
    public Integer call() {
        new picocli.CommandLine(this).usage(cli.err());
        return CumulusCli.EXIT_USAGE;
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
        description = {"Start N server nodes on this host in the background; returns once they serve.",
            "The cluster's address and admin credential go into an owner-only file under the user's configuration "
                + "directory (~/.config/cumulus/clusters/NAME.properties); a client credential for this OS user "
                + "into ~/.config/cumulus/credentials/NAME/USER.credential, where 'run --attach NAME' finds it."})
    static final class Start implements Callable<Integer> {
        @ParentCommand
        ClusterCommand parent;

        @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
        String name;

        @Option(names = "--nodes", paramLabel = "N", required = true,
            description = "Number of server nodes, 1..64 on one host.")
        int nodes;

        @Option(names = "--start-timeout", paramLabel = "D", converter = DurationConverter.class,
            description = "How long the servers may take to serve (default: 60s).")
        Duration startTimeout = DEFAULT_START_TIMEOUT;

        @Option(names = {"-cp", "--classpath"}, paramLabel = "CP", defaultValue = "",
            description = "Classes every server has from the start, for every client (default: none; the Cumulus "
                + "runtime is always there).")
        String classpath;

        @picocli.CommandLine.Mixin
        HostsOptions hostsOptions = new HostsOptions();

        @Override
        public Integer call() {
            CumulusCli cli = parent.cli;
            ClusterRegistry.checkName(name);
            ServerHosts hosts = hostsOptions.hosts();
            if (hosts != null) {
                if (nodes < 1) {
                    cli.err().println("cumulus cluster start: --nodes must be at least 1, got " + nodes);
                    return CumulusCli.EXIT_USAGE;
                }
                LaunchContext.checkPlaces(hosts.file(), nodes); // before anything starts: too few slots, a bad line
            } else if (nodes < 1 || (System.getenv("SLURM_JOB_ID") == null && nodes > LaunchContext.MAX_LOCAL_NODES)) {
                cli.err().println("cumulus cluster start: --nodes must be 1.." + LaunchContext.MAX_LOCAL_NODES
                    + " on one host, got " + nodes);
                return CumulusCli.EXIT_USAGE;
            }
            ClusterRegistry registry = ClusterRegistry.ofUser();
            var existing = registry.read(name);
            if (existing.isPresent() && existing.get().alive()) {
                cli.err().println("cumulus cluster start: cluster " + name + " already serves (keeper pid "
                    + existing.get().keeperPid() + "); stop it first with 'cumulus cluster stop " + name + "'");
                return CumulusCli.EXIT_ERROR;
            }
            if (existing.isPresent()) {
                cli.err().println("cumulus: removing what the stale cluster " + name + " left");
                ClusterStop.stop(registry, name, cli.err());
            }
            ClusterRecord r = KeeperProcess.start(registry, name, nodes, absolute(classpath), startTimeout, hosts);
            cli.out().println("cluster " + name + " serves: " + r.size() + " server(s)"
                + (r.servers().hosts().isEmpty() ? "" : " on " + r.servers().hostsColumn()) + ", keeper pid "
                + r.keeperPid()
                + ", state " + registry.stateFile(name));
            String user = System.getProperty("user.name");
            if (user != null && user.matches(ClientAdmission.PRINCIPAL_PATTERN)) {
                Path own = ClusterGrant.grant(registry, name, user, null);
                cli.out().println("your credential (client " + user + "): " + own + "; 'cumulus cluster grant " + name
                    + " CLIENT' makes one for another client");
            }
            return 0;
        }
    }

    /** {@code --hosts FILE [--ssh ARGS] [--bind ADDR] [--base-port P]} of {@code cluster start} and {@code serve}. */
    static final class HostsOptions {
        @Option(names = "--hosts", paramLabel = "FILE",
            description = "Start the servers on these hosts, as 'cumulus run --hosts' starts nodes: lines 'HOST "
                + "[slots=N] [java=PATH]'; servers are placed in order, each started through ssh (localhost: here). "
                + "Clients attach from this host.")
        Path file;

        @Option(names = "--ssh", paramLabel = "ARGS", description = "Extra ssh options for --hosts, split at spaces.")
        String ssh;

        @Option(names = "--bind", paramLabel = "ADDR",
            description = "With --hosts: this host's address for the servers on other hosts, which reach the "
                + "clients there (default: the address their ssh servers see).")
        String bind;

        @Option(names = "--base-port", paramLabel = "P",
            description = "With --hosts: server i listens on UDP port P + i of its host (default: 40100).")
        Integer basePort;

        /** Where the servers run, or null: on this host. */
        ServerHosts hosts() {
            if (file == null) {
                if (ssh != null || bind != null || basePort != null) {
                    throw new LaunchException((ssh != null ? "--ssh" : bind != null ? "--bind" : "--base-port")
                        + " applies only with --hosts FILE");
                }
                return null;
            }
            return new ServerHosts(file, ssh, bind, basePort == null ? LaunchContext.DEFAULT_BASE_PORT : basePort);
        }
    }

    /** The classpath with absolute entries: the keeper may resolve it elsewhere. */
    static String absolute(String classpath) {
        if (classpath == null || classpath.isBlank()) {
            return "";
        }
        return String.join(java.io.File.pathSeparator, java.util.Arrays.stream(classpath.split(java.io.File.pathSeparator))
            .filter(e -> !e.isEmpty())
            .map(e -> e.endsWith("*") ? java.nio.file.Path.of(e.substring(0, e.length() - 1)).toAbsolutePath() + java.io.File.separator + "*"
                : java.nio.file.Path.of(e).toAbsolutePath().toString())
            .toList());
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stop a standing cluster (also a stale one) and remove its servers, driver directory and files.")
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        ClusterCommand parent;

        @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
        String name;

        @Override
        public Integer call() {
            CumulusCli cli = parent.cli;
            ClusterRegistry registry = ClusterRegistry.ofUser();
            if (!ClusterStop.stop(registry, name, cli.err())) {
                cli.err().println("cumulus cluster stop: there is no cluster " + name
                    + " ('cumulus cluster list' shows the clusters)");
                return CumulusCli.EXIT_ERROR;
            }
            cli.out().println("cluster " + name + " stopped");
            return 0;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
        description = "List the standing clusters: serving, or stale (the keeper is gone; 'cumulus cluster stop "
            + "NAME' cleans it up).")
    static final class ListClusters implements Callable<Integer> {
        @ParentCommand
        ClusterCommand parent;

        @Option(names = "--json", description = "Print a JSON array of {name, state, servers, serving, keeperPid, "
            + "started}.")
        boolean json;

        @Override
        public Integer call() {
            CumulusCli cli = parent.cli;
            List<String> damaged = new ArrayList<>();
            List<ClusterRecord> all = ClusterRegistry.ofUser().list(damaged);
            if (json) {
                List<java.util.Map<String, Object>> rows = new ArrayList<>();
                for (ClusterRecord r : all) {
                    java.util.Map<String, Object> row = new java.util.LinkedHashMap<>();
                    row.put("name", r.name());
                    row.put("state", r.alive() ? "serving" : "stale");
                    row.put("servers", r.size());
                    row.put("serving", r.alive() ? r.serving() : 0);
                    row.put("keeperPid", r.keeperPid());
                    row.put("hosts", r.servers().hostsColumn());
                    row.put("started", r.started().toString());
                    rows.add(row);
                }
                for (String d : damaged) {
                    rows.add(java.util.Map.of("name", d, "state", "damaged"));
                }
                cli.out().println(new com.google.gson.GsonBuilder().setPrettyPrinting().create().toJson(rows));
                return 0;
            }
            if (all.isEmpty() && damaged.isEmpty()) {
                cli.out().println("no standing clusters");
                return 0;
            }
            cli.out().printf("%-20s %-8s %7s %8s  %-20s  %s%n", "NAME", "STATE", "SERVERS", "KEEPER", "STARTED",
                "HOSTS");
            for (ClusterRecord r : all) {
                cli.out().printf("%-20s %-8s %7s %8d  %-20s  %s%n", r.name(), r.alive() ? "serving" : "stale",
                    r.serversColumn(), r.keeperPid(), r.started().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                    r.servers().hostsColumn());
            }
            for (String d : damaged) {
                cli.out().printf("%-20s %-8s %7s %8s  %-20s  %s%n", d, "damaged", "-", "-", "-", "-");
            }
            return 0;
        }
    }

    @Command(name = "serve", hidden = true,
        description = "The keeper of a standing cluster (started by 'cumulus cluster start'); runs until stopped.")
    static final class Serve implements Callable<Integer> {
        @ParentCommand
        ClusterCommand parent;

        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(names = "--nodes", paramLabel = "N", required = true)
        int nodes;

        @Option(names = "--start-timeout", paramLabel = "D", converter = DurationConverter.class)
        Duration startTimeout = DEFAULT_START_TIMEOUT;

        @Option(names = {"-cp", "--classpath"}, paramLabel = "CP", defaultValue = "")
        String classpath;

        @picocli.CommandLine.Mixin
        HostsOptions hostsOptions = new HostsOptions();

        @Override
        public Integer call() {
            CumulusCli cli = parent.cli;
            cli.out().println("cumulus: keeper of cluster " + name + " (pid " + ProcessHandle.current().pid()
                + ") started " + Instant.now());
            return new StandingKeeper(ClusterRegistry.ofUser(), name, nodes, classpath, startTimeout,
                hostsOptions.hosts(), cli.out(), cli.err()).run();
        }
    }
}
