package dev.cumulus.cli.launch.mains;

import dev.cumulus.internal.launch.LaunchConfig;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Prints {@code node ID says GREETING and EXTRA}: the resources {@code greeting.txt} and {@code extra.txt} from its
 * classpath (a test puts them in a class directory and a jar); exits 1 when one is missing.
 */
public final class GreetingMain {
    private GreetingMain() {
    }

    public static void main(String[] args) throws IOException {
        System.out.println("node " + LaunchConfig.fromProperties(System.getProperties()).nodeId() + " says "
            + resource("greeting.txt") + " and " + resource("extra.txt"));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = GreetingMain.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                System.err.println("no " + name + " on the classpath " + System.getProperty("java.class.path"));
                System.exit(1);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
