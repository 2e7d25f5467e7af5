package dev.cumulus.cli;

import picocli.CommandLine;

/**
 * Whole-number options ({@code --nodes 4}, {@code --tail 50}): a value that is no whole number is refused with what is
 * expected, not with Java's type name ("'abc' is not a long"). Registered for {@code int} and {@code long} options of
 * every command by {@link CumulusCli#execute}.
 */
final class WholeNumbers {
    private WholeNumbers() {
    }

    static long parse(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException(value.trim().matches("[+-]?\\d+")
                ? "'" + value + "' is too large; give at most " + Long.MAX_VALUE
                : "'" + value + "' is not a whole number; give digits only, e.g. 4");
        }
    }

    static int parseInt(String value) {
        long n = parse(value);
        if (n != (int) n) {
            throw new CommandLine.TypeConversionException("'" + value + "' is too large; give at most "
                + Integer.MAX_VALUE);
        }
        return (int) n;
    }

    /** Registers the converters on a command line and all its subcommands. */
    static void register(CommandLine cmd) {
        cmd.registerConverter(Long.class, WholeNumbers::parse);
        cmd.registerConverter(Long.TYPE, WholeNumbers::parse);
        cmd.registerConverter(Integer.class, WholeNumbers::parseInt);
        cmd.registerConverter(Integer.TYPE, WholeNumbers::parseInt);
    }
}
