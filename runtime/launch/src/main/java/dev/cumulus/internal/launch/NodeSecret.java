package dev.cumulus.internal.launch;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.RunSecret;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * This node's copy of the run's secret, read once from the first line of its stdin when its command line says the
 * launcher writes it there ({@code cumulus.secret=}{@value #STDIN}, which {@link LaunchConfig} always sets): the
 * secret itself is never on a command line ({@code /proc/PID/cmdline} is readable by every user) nor in a file. The
 * line is read byte by byte from file descriptor 0, so whoever reads stdin next ({@link LauncherWatch}, a bench child's
 * start gate) sees exactly what follows it.
 *
 * <p>Threads: any; the first call reads, later calls return what it read. {@link LauncherWatch} calls it before it
 * starts reading stdin itself.
 */
public final class NodeSecret {
    /** The system property that says where the secret comes from. */
    /** {@code cumulus.secret}'s value: the first line on stdin. */
    public static final String STDIN = "stdin";
    private static final int MAX_LINE = 256;
    private static RunSecret secret;
    private static boolean read;

    private NodeSecret() {
    }

    /**
     * The run's secret when the launcher hands one over stdin, else null (a node started by hand).
     *
     * @throws CumulusException when stdin ends before the line or does not start with it
     */
    public static synchronized RunSecret get() {
        if (!read) {
            read = true;
            if (STDIN.equals(System.getProperty(LaunchConfig.SECRET))) {
                secret = RunSecret.parseLine(firstLine(new FileInputStream(FileDescriptor.in)));
            }
        }
        return secret;
    }

    private static String firstLine(InputStream in) {
        byte[] line = new byte[MAX_LINE];
        int n = 0;
        try {
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (n == MAX_LINE) {
                    throw new CumulusException("the first line on this node's stdin is longer than a run secret's");
                }
                line[n++] = (byte) b;
            }
            if (b < 0) {
                throw new CumulusException("this node's stdin ended before the run's secret (-D"
                    + LaunchConfig.SECRET + "=" + STDIN + " says the launcher writes it there); was the launcher "
                    + "stopped?");
            }
        } catch (IOException e) {
            throw new CumulusException("cannot read the run's secret from stdin: " + e.getMessage(), e);
        }
        return new String(line, 0, n, StandardCharsets.US_ASCII);
    }
}
