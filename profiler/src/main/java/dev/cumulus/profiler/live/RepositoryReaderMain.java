package dev.cumulus.profiler.live;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The live profile's reader process: reads the JFR repositories of a run's nodes on this host
 * ({@link RepositoryWindows}) and prints each node's one-second windows, one JSON line each, on stdout. The launcher
 * starts it at the lowest scheduling priority with its own JIT and heap, so reading and compiling the reader never
 * takes a core from a program that keeps every core busy: the reading waits instead ({@code LiveReaderProcess} in the
 * command line).
 *
 * <p>Arguments: one {@code NODE=ROOT[:RECORDING]} per node, {@code ROOT} being the node's
 * {@code -XX:FlightRecorderOptions:repository} and {@code RECORDING} the file its recording is dumped to at exit. It
 * reads until its stdin ends (the launcher closes it when the nodes have ended), then prints every node's last window,
 * completed from its recording file with what the reading had not reached, and exits 0. Exit 2: bad arguments.
 *
 * <p>Before it reads anything it readies its parser ({@link ParserWarmUp}) and prints {@link #READY} on a line of its
 * own: the launcher starts the nodes after that line, so the reader's cold start does not fall on the program.
 */
public final class RepositoryReaderMain {
    /** The line the reader prints once its parser is ready, before any window. */
    public static final String READY = "@cumulus-live-reader-ready";

    private RepositoryReaderMain() {
    }

    public static void main(String[] args) throws IOException {
        List<RepositoryWindows> readers = new ArrayList<>();
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Object lock = new Object();
        List<Node> nodes;
        try {
            nodes = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cumulus: live profile reader: " + e.getMessage());
            System.exit(2);
            return;
        }
        ParserWarmUp.run();
        out.println(READY);
        out.flush();
        for (Node n : nodes) {
            readers.add(RepositoryWindows.start(n.id(), n.root(), line -> {
                synchronized (lock) {
                    out.println(line);
                    out.flush();
                }
            }));
        }
        waitForEnd(System.in);
        for (int i = 0; i < readers.size(); i++) {
            readers.get(i).close(nodes.get(i).recording());
        }
        synchronized (lock) {
            out.flush();
        }
    }

    /** One node to read: its id, its repository root and the recording file it writes at its exit (may be null). */
    record Node(int id, Path root, Path recording) {
    }

    static List<Node> parse(String[] args) {
        if (args.length == 0) {
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
