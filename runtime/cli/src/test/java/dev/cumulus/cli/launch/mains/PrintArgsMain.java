package dev.cumulus.cli.launch.mains;

import dev.cumulus.internal.launch.LaunchConfig;

import java.util.Arrays;

/**
 * Prints its arguments, its launch configuration and a burst of numbered lines on stdout, one line on stderr; exits 0.
 */
public final class PrintArgsMain {
    public static final int BURST_LINES = 200;

    private PrintArgsMain() {
    }

    public static void main(String[] args) {
        LaunchConfig launch = LaunchConfig.fromProperties(System.getProperties());
        int id = launch.nodeId();
        System.out.println("node " + id + " of " + launch.size() + " args " + Arrays.toString(args));
        System.out.println("node " + id + " transport=" + launch.transport().name().toLowerCase()
            + " endpoints=" + String.join(",", launch.endpoints())
            + " aeron.dir=" + (launch.aeronDir() == null ? "" : launch.aeronDir()));
        for (int i = 0; i < BURST_LINES; i++) {
            System.out.println("node " + id + " line " + i + " " + "x".repeat(i % 50));
        }
        System.err.println("node " + id + " stderr");
    }
}
