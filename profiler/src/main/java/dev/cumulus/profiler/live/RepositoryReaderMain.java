package dev.cumulus.profiler.live;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The live profile's reader process: reads the JFR repositories of a run's nodes on this host
 * ({@link RepositoryWindows}). The launcher starts it at the lowest scheduling priority with its own JIT and heap, so
 * reading, decoding and compiling the reader never take a core from a program that keeps every core busy: the reading
 * waits instead ({@code LiveReaderProcess} in the command line).
 *
 * <p>Arguments: {@code [--file JSONL [--stream] [--view START_MS]] NODE=ROOT[:RECORDING]...}: one
 * {@code NODE=ROOT[:RECORDING]} per node, {@code ROOT} being the node's {@code -XX:FlightRecorderOptions:repository}
 * and {@code RECORDING} the file its recording is dumped to at exit. Without {@code --file} it prints each node's
 * one-second windows, one JSON line each, on stdout (a launcher that merges them with other hosts' nodes' windows
 * reads them). With {@code --file} it is the run's whole live profile (every node is on this host): it stamps and
 * writes every window to {@code JSONL} ({@link LiveSink#local}) and prints what the launcher is to print
 * ({@link LiveOutput}): with {@code --stream} the profile stream, each line as {@value #OUT_TAG}{@code LINE}, with
 * {@code --view} the terminal view counted from {@code START_MS} (epoch ms), as {@value #ERR_TAG}{@code LINE}; so the
 * launcher copies lines and decodes nothing. It reads until its stdin ends (the launcher closes it when the nodes
 * have ended), then hands on every node's last window, completed from its recording file with what the reading had
 * not reached, and exits 0. Exit 2: bad arguments; 1: the file cannot be written.
 */
public final class RepositoryReaderMain {
    /** Prefix of a line the launcher prints on its stdout (with {@code --file}). */
    public static final String OUT_TAG = "o ";
    /** Prefix of a line the launcher prints on its stderr (with {@code --file}). */
    public static final String ERR_TAG = "e ";

    private RepositoryReaderMain() {
    }

    public static void main(String[] args) throws IOException {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Object lock = new Object();
        Arguments a;
        try {
            a = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cumulus: live profile reader: " + e.getMessage());
            System.exit(2);
            return;
        }
        Consumer<String> print = line -> {
            synchronized (lock) {
                out.println(line);
                out.flush();
            }
        };
        LiveSink sink = null;
        if (a.file() != null) {
            LiveView view = a.viewStartMs() >= 0 ? new LiveView(a.viewStartMs()) : null;
            try {
                sink = LiveSink.local(a.file(), new LiveOutput(a.stream(), view, l -> print.accept(OUT_TAG + l),
                    l -> print.accept(ERR_TAG + l)));
            } catch (IOException e) {
                System.err.println("cumulus: no live profile (cannot write " + a.file() + ": " + e.getMessage() + ")");
                System.exit(1);
                return;
            }
        }
        Consumer<String> windows = sink != null ? sink::offer : print;
        List<RepositoryWindows> readers = new ArrayList<>();
        for (Node n : a.nodes()) {
            readers.add(RepositoryWindows.start(n.id(), n.root(), windows));
        }
        waitForEnd(System.in);
        for (int i = 0; i < readers.size(); i++) {
            readers.get(i).close(a.nodes().get(i).recording());
        }
        if (sink != null) {
            sink.close();
        }
        synchronized (lock) {
            out.flush();
        }
    }

    /** One node to read: its id, its repository root and the recording file it writes at its exit (may be null). */
    record Node(int id, Path root, Path recording) {
    }

    /** The command line: the nodes, and with a file the output options ({@code viewStartMs} -1: no view). */
    record Arguments(List<Node> nodes, Path file, boolean stream, long viewStartMs) {
    }

    static Arguments parse(String[] args) {
        Path file = null;
        boolean stream = false;
        long viewStartMs = -1;
        int i = 0;
        for (; i < args.length && args[i].startsWith("--"); i++) {
            switch (args[i]) {
                case "--file" -> file = Path.of(value(args, ++i, "--file"));
                case "--stream" -> stream = true;
                case "--view" -> {
                    String v = value(args, ++i, "--view");
                    try {
                        viewStartMs = Long.parseLong(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--view expects the start time in epoch ms, not '" + v + "'");
                    }
                }
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                    + "' (expected --file JSONL, --stream, --view START_MS)");
            }
        }
        if (file == null && (stream || viewStartMs >= 0)) {
            throw new IllegalArgumentException("--stream and --view need --file (the run's live profile file)");
        }
        List<Node> nodes = nodes(List.of(args).subList(i, args.length));
        return new Arguments(nodes, file, stream, viewStartMs);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static List<Node> nodes(List<String> args) {
        if (args.isEmpty()) {
            throw new IllegalArgumentException("expected NODE=REPOSITORY[" + File.pathSeparator
                + "RECORDING] arguments, one per node");
        }
        List<Node> nodes = new ArrayList<>();
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0 || eq == a.length() - 1) {
                throw new IllegalArgumentException("'" + a + "' is not NODE=REPOSITORY[" + File.pathSeparator
                    + "RECORDING]");
            }
            String[] paths = a.substring(eq + 1).split(File.pathSeparator, 2);
            try {
                nodes.add(new Node(Integer.parseInt(a.substring(0, eq)), Path.of(paths[0]),
                    paths.length > 1 && !paths[1].isEmpty() ? Path.of(paths[1]) : null));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + a.substring(0, eq) + "' in '" + a + "' is not a node number");
            }
        }
        return nodes;
    }

    private static void waitForEnd(InputStream in) {
        byte[] skip = new byte[256];
        try {
            while (in.read(skip) >= 0) {
                // nothing is sent; only the end matters
            }
        } catch (IOException e) {
            // the launcher is gone: end as if told to
        }
    }
}
