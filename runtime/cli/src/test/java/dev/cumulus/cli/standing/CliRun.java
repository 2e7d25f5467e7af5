package dev.cumulus.cli.standing;

import dev.cumulus.cli.CumulusCli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One {@code cumulus} command run in this JVM ({@link CumulusCli#execute}) as a user types it: its exit code and what
 * it printed.
 */
record CliRun(int exit, String out, String err) {
    /** Runs {@code cumulus args}. */
    static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code cumulus args}; fails with the command and its output unless it exits with {@code expected}. */
    static CliRun expect(int expected, String... args) {
        CliRun r = of(args);
        assertEquals(expected, r.exit(), String.join(" ", args) + ":\n" + r.out() + r.err());
        return r;
    }

    /** Runs {@code cumulus args}; fails with the command and its output unless it succeeds. */
    static CliRun ok(String... args) {
        return expect(0, args);
    }
}
