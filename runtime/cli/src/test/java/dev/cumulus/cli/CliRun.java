package dev.cumulus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One {@code cumulus} command run in this JVM ({@link CumulusCli#execute}) as a user types it: its exit code and what
 * it printed.
 */
public record CliRun(int exit, String out, String err) {
    /** Runs {@code cumulus args}. */
    public static CliRun of(String... args) {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        int exit = CumulusCli.execute(args, out.stream(), err.stream());
        return new CliRun(exit, out.text(), err.text());
    }

    /** Runs {@code cumulus args}; fails with the command and its output unless it exits with {@code expected}. */
    public static CliRun expect(int expected, String... args) {
        CliRun r = of(args);
        assertEquals(expected, r.exit(), String.join(" ", args) + ":\n" + r.out() + r.err());
        return r;
    }

    /** Runs {@code cumulus args}; fails with the command and its output unless it succeeds. */
    public static CliRun ok(String... args) {
        return expect(0, args);
    }
}
