package dev.cumulus.cli.launch;

import java.util.List;

/**
 * The Java a host runs the agent and the nodes with, checked on the host before anything of the run starts there: a
 * shell line that ends with exit code {@value #EXIT_NO_JAVA} and one line on stderr ({@value #MISSING} and the path,
 * or {@value #FOUND} and the first line of its {@code java -version}) when the path is not an executable or is a Java
 * before 25, and otherwise execs the command.
 */
final class HostJava {
    /** The check's exit code: no usable Java at the path. */
    static final int EXIT_NO_JAVA = 78;
    static final String MISSING = "cumulus: no executable java at";
    static final String FOUND = "cumulus: the java here is";
    /** The feature release a host's Java must have at least. */
    static final int MIN_FEATURE = 25;

    private HostJava() {
    }

    /** The shell line that checks {@code command}'s first word (the java path) and then execs {@code command}. */
    static String checkedLine(List<String> command) {
        String java = Ssh.quote(command.getFirst());
        return "j=" + java + "; if [ ! -x \"$j\" ] || [ -d \"$j\" ]; then echo \"" + MISSING + " $j\" >&2; exit "
            + EXIT_NO_JAVA + "; fi; "
            + "v=$(\"$j\" -version 2>&1 | head -n 1); "
            + "m=$(printf '%s\\n' \"$v\" | sed -n 's/.*version \"\\([0-9][0-9]*\\).*/\\1/p'); "
            + "if [ \"${m:-0}\" -lt " + MIN_FEATURE + " ]; then echo \"" + FOUND + " $v\" >&2; exit " + EXIT_NO_JAVA
            + "; fi; " + Ssh.shellLine(command);
    }

    /**
     * What the check said, in words for the user, from the agent's last stderr lines; null when the lines hold no
     * check's answer.
     */
    static String explain(String java, List<String> lines) {
        for (String line : lines) {
            if (line.startsWith(MISSING + " ")) {
                return "there is no Java at " + java + " on it; install JDK " + MIN_FEATURE + " there at that path, or "
                    + "name its java in the hosts file (HOST java=/path/to/bin/java)";
            }
            if (line.startsWith(FOUND + " ")) {
                return java + " there is '" + line.substring(FOUND.length() + 1).strip() + "', and Cumulus needs Java "
                    + MIN_FEATURE + " or later; install JDK " + MIN_FEATURE + " there, or name its java in the hosts "
                    + "file (HOST java=/path/to/bin/java)";
            }
        }
        return null;
    }
}
