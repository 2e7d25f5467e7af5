package dev.cumulus.cli;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.launch.LaunchException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.concurrent.Callable;

/**
 * The {@code cumulus} command: the one entry point of the toolkit, run by {@code ./cumulus} and by the editor.
 *
 * <p>To add a subcommand, write one {@code @Command} class (with {@code mixinStandardHelpOptions = true}, returning
 * its exit code from {@code call()}) and list it in {@code subcommands} below.
 *
 * <p>Exit codes: 0 success; 1 an error while working; 2 a usage error (bad option, unknown main class, ...);
 * {@code cumulus run} adds its own (see {@link RunCommand}).
 */
@Command(name = "cumulus",
    mixinStandardHelpOptions = true,
    versionProvider = CumulusCli.Version.class,
    description = "Parallel and distributed Java on Aeron: run SPMD programs on a cluster of JVMs.",
    synopsisSubcommandLabel = "COMMAND",
    subcommands = {
        RunCommand.class,
        NodeCommand.class,
        ClasspathCommand.class,
        CheckCommand.class,
        BenchCommand.class,
        LspCommand.class,
        NewCommand.class,
        ProfileCommand.class,
        ClusterCommand.class,
        AdminCommands.Ps.class,
        AdminCommands.Migrate.class,
        AdminCommands.Kill.class,
        CommandLine.HelpCommand.class,
    })
public final class CumulusCli implements Callable<Integer> {
    public static final int EXIT_ERROR = 1;
    public static final int EXIT_USAGE = 2;

    @Option(names = "--stack-trace", scope = ScopeType.INHERIT, description = "Print stack traces for errors.")
    boolean stackTrace;

    @Spec
    CommandSpec spec;

    private PrintStream out = System.out;
    private PrintStream err = System.err;

    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err));
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        CumulusCli cli = new CumulusCli();
        cli.out = out;
        cli.err = err;
        CommandLine cmd = new CommandLine(cli)
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .setParameterExceptionHandler(CumulusCli::usageError)
            .setExecutionExceptionHandler((e, c, parsed) -> cli.error(e, c, parsed));
        WholeNumbers.register(cmd);
        // Everything after MAIN belongs to the user's program, even if it looks like an option of ours.
        cmd.getSubcommands().get("run").setStopAtPositional(true);
        cmd.getSubcommands().get("node").setStopAtPositional(true);
        int code = cmd.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The standard output of this invocation (for subcommands). */
    public PrintStream out() {
        return out;
    }

    /** The standard error of this invocation (for subcommands). */
    public PrintStream err() {
        return err;
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(err);
        return EXIT_USAGE;
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        PrintWriter err = c.getErr();
        err.println(c.getCommandSpec().qualifiedName() + ": " + e.getMessage() + " (see '"
            + c.getCommandSpec().qualifiedName() + " --help')");
        if (hasDebug(args)) {
            e.printStackTrace(err);
        }
        err.flush();
        return EXIT_USAGE;
    }

    private int error(Exception e, CommandLine c, ParseResult parsed) {
        boolean usage = e instanceof LaunchException;
        String name = c.getCommandSpec().qualifiedName();
        String message = e instanceof CumulusException || e.getMessage() == null
            ? (e.getMessage() == null ? e.toString() : e.getMessage())
            : e.getClass().getSimpleName() + ": " + e.getMessage();
        err.println(name + ": " + message);
        if (debugRequested(parsed)) {
            e.printStackTrace(err);
        }
        err.flush();
        return usage ? EXIT_USAGE : EXIT_ERROR;
    }

    private static boolean debugRequested(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--stack-trace")) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasDebug(String[] args) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.equals("--stack-trace")) {
                return true;
            }
        }
        return false;
    }

    /** {@code cumulus --version}: the toolkit's version and the JDK it runs on. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {
                "cumulus " + version(),
                "Java " + Runtime.version() + " (" + System.getProperty("java.vendor", "?") + ") at "
                    + System.getProperty("java.home"),
            };
        }

        static String version() {
            try (InputStream in = CumulusCli.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    return "(unknown version)";
                }
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "(unknown version)");
            } catch (IOException e) {
                return "(unknown version)";
            }
        }
    }
}
