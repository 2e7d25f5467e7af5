package dev.cumulus.agent;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The agent's diagnostics, parsed once from the options after the agent jar
 * ({@code -javaagent:cumulus-agent.jar=verbose,dumpDir=/tmp/woven}; {@code cumulus run --agent-options OPTS} passes
 * them to every node) and handed to the transformer. User documentation: docs/CLI.md ("Diagnostics").
 *
 * @param verbose warnings and each woven (or, when attached, retransformed) class on stderr
 * @param debug   stack traces with the transformer's errors
 * @param dumpDir where every woven class is also written as {@code name.class}, or {@code null} for nowhere
 */
public record AgentSettings(boolean verbose, boolean debug, Path dumpDir) {
    /** No diagnostics: what the agent runs with when it is given no options. */
    public static final AgentSettings NONE = new AgentSettings(false, false, null);

    static final String VERBOSE = "verbose";
    static final String DEBUG = "debug";
    static final String DUMP_DIR = "dumpDir";
    /** The options and their syntax, for error messages and help texts. */
    public static final String SYNTAX = VERBOSE + ", " + DEBUG + ", " + DUMP_DIR + "=DIR, separated by commas";
    /** An example of options, as they follow the jar or {@code cumulus run --agent-options}. */
    public static final String EXAMPLE = VERBOSE + "," + DUMP_DIR + "=/tmp/woven";

    /**
     * Reads the agent's options: {@code null} or empty for {@link #NONE}; else names separated by commas, each at
     * most once: {@code verbose}, {@code debug}, {@code dumpDir=DIR} (a directory path without commas).
     *
     * @throws IllegalArgumentException naming the option that is wrong and listing the valid ones ({@link #SYNTAX})
     */
    public static AgentSettings parse(String options) {
        if (options == null || options.isEmpty()) {
            return NONE;
        }
        boolean verbose = false;
        boolean debug = false;
        Path dumpDir = null;
        Set<String> seen = new HashSet<>();
        for (String option : options.split(",", -1)) {
            int eq = option.indexOf('=');
            String name = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? null : option.substring(eq + 1);
            if (!seen.add(name)) {
                throw bad(options, "'" + name + "' is given twice");
            }
            switch (name) {
                case VERBOSE -> verbose = flag(options, name, value);
                case DEBUG -> debug = flag(options, name, value);
                case DUMP_DIR -> dumpDir = directory(options, value);
                case "" -> throw bad(options, "an option is empty (two commas in a row, or one at an end)");
                default -> throw bad(options, "'" + name + "' is not an option");
            }
        }
        return new AgentSettings(verbose, debug, dumpDir);
    }

    private static boolean flag(String options, String name, String value) {
        if (value != null) {
            throw bad(options, "'" + name + "' takes no value (give it as '" + name + "', leave it out to turn it off)");
        }
        return true;
    }

    private static Path directory(String options, String value) {
        if (value == null || value.isBlank()) {
            throw bad(options, "'" + DUMP_DIR + "' needs a directory: " + DUMP_DIR + "=DIR");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw bad(options, "'" + DUMP_DIR + "=" + value + "' is not a path: " + e.getReason());
        }
    }

    private static IllegalArgumentException bad(String options, String what) {
        return new IllegalArgumentException("bad Cumulus agent options '" + options + "': " + what
                + "; the options are " + SYNTAX);
    }
}
