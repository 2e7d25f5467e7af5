package dev.cumulus.bench;

import java.util.List;

/** The options a suite's own {@code main} takes outside the CLI ({@code --quick}, {@code --rounds N}). */
public final class BenchArgs {
    private BenchArgs() {
    }

    /**
     * The value of {@code --rounds} in {@code args}, 0 when absent; a value that is not 1 to 999 is told on stderr
     * (naming {@code suite}) and ends the JVM with exit code 2.
     */
    public static int rounds(String suite, List<String> args) {
        int i = args.indexOf("--rounds");
        if (i < 0) {
            return 0;
        }
        if (i + 1 >= args.size() || !args.get(i + 1).matches("[1-9][0-9]{0,2}")) {
            System.err.println("cumulus bench " + suite + ": --rounds takes a number of rounds, 1 to 999");
            System.exit(2);
        }
        return Integer.parseInt(args.get(i + 1));
    }
}
