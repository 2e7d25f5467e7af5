package dev.cumulus.cli;

import dev.cumulus.cli.launch.RuntimeClasspath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code cumulus lsp}: the language server ({@code lsp-server/target/cumulus-lsp.jar}) on stdin/stdout. The server runs
 * in a JVM of its own on its own classpath (LSP4J, JDT), so the CLI never links to it; it gets the Cumulus API
 * classpath and this {@code cumulus} command. The {@code ./cumulus} script asks for the server's command line
 * ({@code --print-command}) and replaces itself with it ({@code exec}), so one JVM serves the editor; run in a JVM
 * of its own (not through the script), this command starts the server as a child and forwards stdio to it.
 */
@Command(name = "lsp",
    mixinStandardHelpOptions = true,
    description = {"Start the Cumulus language server on stdin/stdout (for editors: Neovim, Helix, Emacs, VS Code).",
        "See lsp-server/README.md for editor set-up."})
final class LspCommand implements Callable<Integer> {
    @Option(names = "--server-jar", description = "The server jar (default: lsp-server/target/cumulus-lsp.jar of "
        + "this checkout).")
    Path serverJar;

    @Option(names = "--print-command", hidden = true, description = "Print the server's command line, each argument "
        + "followed by a NUL byte, instead of starting it (the ./cumulus script execs it).")
    boolean printCommand;

    @ParentCommand
    CumulusCli cli;

    @Override
    public Integer call() throws Exception {
        Path repo = repoRoot();
        Path jar = serverJar != null ? serverJar : repo == null ? null : repo.resolve("lsp-server/target/cumulus-lsp.jar");
        if (jar == null || !Files.isRegularFile(jar)) {
            cli.err().println("cumulus lsp: the language server is not built (" + jar + "); run ./build first, or "
                + "give its jar with --server-jar");
            return CumulusCli.EXIT_ERROR;
        }
        Path lib = jar.toAbsolutePath().getParent().resolve("lib");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", jar + File.pathSeparator + lib + File.separator + "*", "dev.cumulus.lsp.CumulusLanguageServer",
            "--cumulus-classpath", RuntimeClasspath.asString()));
        if (repo != null && Files.isExecutable(repo.resolve("cumulus"))) {
            cmd.addAll(List.of("--cumulus-command", repo.resolve("cumulus").toString()));
        }
        if (printCommand) {
            for (String arg : cmd) {
                cli.out().print(arg);
                cli.out().print('\0');
            }
            cli.out().flush();
            return 0;
        }
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        return p.waitFor();
    }

    /** The checkout this CLI runs from: runtime/cli/target/{cumulus-cli.jar,classes} is three levels down. */
    private static Path repoRoot() {
        try {
            Path here = Path.of(LspCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path d = here.getParent(); d != null; d = d.getParent()) {
                if (Files.isDirectory(d.resolve("lsp-server"))) {
                    return d;
                }
            }
        } catch (Exception e) {
            // no code source: the caller must give --server-jar
        }
        return null;
    }
}
