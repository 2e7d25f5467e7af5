package dev.cumulus.cli.launch.mains;

import java.util.Arrays;

/** Prints its arguments, its launch properties and a burst of numbered lines on stdout, one line on stderr; exits 0. */
public final class PrintArgsMain {
    public static final int BURST_LINES = 200;

    private PrintArgsMain() {
    }

    public static void main(String[] args) {
        String id = System.getProperty("cumulus.node.id");
        System.out.println("node " + id + " of " + System.getProperty("cumulus.nodes") + " args " + Arrays.toString(args));
        System.out.println("node " + id + " transport=" + System.getProperty("cumulus.transport")
            + " endpoints=" + System.getProperty("cumulus.endpoints", "")
            + " aeron.dir=" + System.getProperty("cumulus.aeron.dir", ""));
        for (int i = 0; i < BURST_LINES; i++) {
            System.out.println("node " + id + " line " + i + " " + "x".repeat(i % 50));
        }
        System.err.println("node " + id + " stderr");
    }
}
