package dev.cumulus.cli.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A {@code --hosts} file: one host a line, {@code HOST [slots=N] [java=PATH]} ({@code N} nodes may run there,
 * default 1; {@code PATH} is the host's {@code bin/java} of JDK 25 or later, by default the launcher's own path),
 * {@code #} starts a comment, blank lines are skipped. {@code HOST} is what {@code ssh} is given (a name, an address, an alias of
 * the user's ssh configuration, {@code user@host}); {@code localhost} means the launching host itself, whose nodes
 * start without ssh. Every error names the file and line.
 *
 * @param file  the file as given
 * @param hosts the hosts in file order
 */
record HostsFile(Path file, List<Host> hosts) {
    /** The hosts file's name for the launching host. */
    static final String LOCALHOST = "localhost";
    /** Host names ssh accepts without a shell's help; never an option (a leading '-'). */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_.%:@\\[\\]][A-Za-z0-9_.%:@\\[\\]-]*");

    /**
     * One line of the file.
     *
     * @param name  what ssh connects to
     * @param slots how many nodes may run there
     * @param line  its line number in the file
     * @param java  the java to run there, or null for the launcher's own path
     */
    record Host(String name, int slots, int line, String java) {
        Host(String name, int slots, int line) {
            this(name, slots, line, null);
        }

        boolean local() {
            return name.equals(LOCALHOST);
        }
    }

    HostsFile {
        hosts = List.copyOf(hosts);
    }

    /** Reads and checks {@code file}; a {@link LaunchException} says what is wrong, where, and what is expected. */
    static HostsFile read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LaunchException("--hosts " + file + ": cannot read it (" + e.getMessage() + ")");
        }
        return parse(file, lines);
    }

    static HostsFile parse(Path file, List<String> lines) {
        List<Host> hosts = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            int lineNo = i + 1;
            String text = lines.get(i);
            int hash = text.indexOf('#');
            String[] words = (hash < 0 ? text : text.substring(0, hash)).trim().split("\\s+");
            if (words.length == 1 && words[0].isEmpty()) {
                continue;
            }
            String name = words[0];
            if (!HOST.matcher(name).matches()) {
                throw bad(file, lineNo, "'" + name + "' is not a host name");
            }
            Integer slots = null;
            String java = null;
            for (int w = 1; w < words.length; w++) {
                if (words[w].startsWith("slots=") && slots == null) {
                    slots = slots(file, lineNo, words[w].substring("slots=".length()));
                } else if (words[w].startsWith("java=") && java == null) {
                    java = java(file, lineNo, name, words[w].substring("java=".length()));
                } else {
                    throw bad(file, lineNo, "unexpected '" + words[w] + "'");
                }
            }
            Integer before = seen.putIfAbsent(name, lineNo);
            if (before != null) {
                throw bad(file, lineNo, "host " + name + " is listed again (first on line " + before
                    + "); list it once with slots=N");
            }
            hosts.add(new Host(name, slots == null ? 1 : slots, lineNo, java));
        }
        if (hosts.isEmpty()) {
            throw new LaunchException("--hosts " + file + " lists no host; write one host a line: HOST [slots=N] "
                + "[java=PATH]");
        }
        return new HostsFile(file, hosts);
    }

    private static String java(Path file, int line, String name, String value) {
        if (!value.startsWith("/")) {
            throw bad(file, line, "java=" + value + " is not an absolute path");
        }
        if (name.equals(LOCALHOST)) {
            throw bad(file, line, "java= is for other hosts; the launching host's nodes run with the launcher's java");
        }
        return value;
    }

    private static int slots(Path file, int line, String value) {
        int n;
        try {
            n = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw bad(file, line, "slots=" + value + " is not a number");
        }
        if (n < 1 || n > LaunchContext.MAX_LOCAL_NODES) {
            throw bad(file, line, "slots=" + value + " is outside 1.." + LaunchContext.MAX_LOCAL_NODES);
        }
        return n;
    }

    private static LaunchException bad(Path file, int line, String what) {
        return new LaunchException(file + ":" + line + ": " + what + "; expected 'HOST [slots=N] [java=PATH]' ('#' "
            + "starts a "
            + "comment)");
    }

    /** The slots of all hosts together. */
    int slots() {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    /**
     * Places {@code nodes} nodes in order: the first host's slots take nodes 0.., then the next host's.
     *
     * @return for each node id, the index of its host in {@link #hosts()}
     * @throws LaunchException when the hosts have fewer slots than nodes
     */
    int[] place(int nodes) {
        if (nodes > slots()) {
            throw new LaunchException("--nodes " + nodes + " is more than the " + slots() + " slots of " + file
                + "; add hosts or slots=N, or ask for fewer nodes");
        }
        int[] hostOf = new int[nodes];
        int node = 0;
        for (int h = 0; h < hosts.size() && node < nodes; h++) {
            for (int s = 0; s < hosts.get(h).slots() && node < nodes; s++) {
                hostOf[node++] = h;
            }
        }
        return hostOf;
    }
}
