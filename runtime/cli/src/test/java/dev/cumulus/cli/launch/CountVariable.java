package dev.cumulus.cli.launch;

/** A count a long-running command ({@code ./build failures}, {@code ./build litmus}) hands a system test. */
final class CountVariable {
    private CountVariable() {
    }

    /**
     * The count in environment variable {@code name}'s {@code value}, or {@code otherwise} when it is unset.
     *
     * @throws IllegalArgumentException naming the variable and what to give when the value is not a count of at least 1
     */
    static int read(String name, String value, int otherwise, String what, String example) {
        if (value == null || value.isBlank()) {
            return otherwise;
        }
        try {
            int count = Integer.parseInt(value.strip());
            if (count >= 1) {
                return count;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException(name + "=" + value + " is not a number of " + what + ": give a whole "
            + "number of at least 1, e.g. " + example);
    }
}
