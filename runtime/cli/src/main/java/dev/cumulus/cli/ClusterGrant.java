package dev.cumulus.cli;

import dev.cumulus.cli.standing.ClusterRecord;
import dev.cumulus.cli.launch.LaunchException;
import dev.cumulus.cli.standing.ClusterRegistry;
import dev.cumulus.internal.service.ClientCredential;
import dev.cumulus.internal.rpc.AccessRule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.Callable;

/**
 * {@code cumulus cluster grant NAME CLIENT}: the admin writes the credential of a named client into an owner-only
 * file. The client attaches with it ({@code cumulus run --attach NAME --credential FILE}) and is that client from then
 * on: what it makes is its own, and it reaches others' objects only as they grant ({@code dev.cumulus.Access}).
 */
@Command(name = "grant", mixinStandardHelpOptions = true,
    description = {"Write the credential of client CLIENT for the standing cluster NAME into an owner-only file "
        + "(default: ~/.config/cumulus/credentials/NAME/CLIENT.credential).",
        "Hand it to the client's user; it attaches with 'cumulus run --attach NAME --credential FILE'. A credential is "
            + "valid until the cluster is stopped. 'admin' is the cluster's admin, who reaches every object."})
final class ClusterGrant implements Callable<Integer> {
    @ParentCommand
    ClusterCommand parent;

    @Parameters(index = "0", paramLabel = "NAME", description = "The cluster's name.")
    String name;

    @Parameters(index = "1", paramLabel = "CLIENT",
        description = "The client's name: 1 to 64 letters, digits, '.', '_' or '-'.")
    String client;

    @Option(names = {"-o", "--out"}, paramLabel = "FILE", description = "Where to write the credential.")
    Path out;

    @Override
    public Integer call() {
        CumulusCli cli = parent.cli;
        ClusterRegistry.checkName(name);
        ClientCredential.checkName(client);
        Path file = grant(ClusterRegistry.ofUser(), name, client, out);
        cli.out().println("credential of client " + client + (AccessRule.ADMIN.equals(client) ? " (the admin)" : "")
            + " for cluster " + name + ": " + file);
        cli.out().println("attach with: cumulus run --attach " + name + " --credential " + file + " -cp CP MAIN");
        return 0;
    }

    /**
     * Writes the credential of {@code client} for cluster {@code name} to {@code out}, or to its default place when
     * {@code out} is null; returns the file.
     *
     * @throws LaunchException when the cluster does not serve (a credential is valid for the start that granted it)
     */
    static Path grant(ClusterRegistry registry, String name, String client, Path out) {
        ClusterRecord r = registry.read(name).orElseThrow(() -> new LaunchException("there is no standing cluster "
            + name + "; start one with 'cumulus cluster start " + name + " --nodes N'"));
        if (!r.alive()) {
            throw new LaunchException("cluster " + name + " is stale (its keeper, pid " + r.keeperPid() + ", is gone); "
                + "'cumulus cluster stop " + name + "' cleans it up, then start it again");
        }
        Path file = (out != null ? out : ClientCredential.defaultFile(registry.configDir(), name, client))
            .toAbsolutePath().normalize();
        ClientCredential.grant(name, r.runId(), HexFormat.of().parseHex(r.adminCredential()), client).write(file);
        return file;
    }
}
