package dev.cumulus.cli.profile;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The recording settings of a profiled run: the running JDK's {@code lib/jfr/default.jfc} with the Cumulus events of
 * the shipped resource {@code cumulus-events.jfc} added before its closing tag. When the JDK has no default.jfc the
 * resource alone is used (JFR then records only the Cumulus events and the JDK's always-on ones).
 */
public final class ProfileSettings {
    static final String RESOURCE = "cumulus-events.jfc";
    private static final Pattern EVENTS = Pattern.compile("(?s)<configuration[^>]*>(.*)</configuration>");

    private ProfileSettings() {
    }

    /** The .jfc text to write into the run directory. */
    public static String jfc() {
        String cumulus = resource();
        Path dflt = Path.of(System.getProperty("java.home"), "lib", "jfr", "default.jfc");
        if (!Files.isRegularFile(dflt)) {
            return cumulus;
        }
        try {
            return merge(Files.readString(dflt, StandardCharsets.UTF_8), cumulus);
        } catch (IOException | RuntimeException e) {
            return cumulus;
        }
    }

    /** {@code base} with the event elements of {@code extra} inserted before {@code </configuration>}. */
    static String merge(String base, String extra) {
        Matcher m = EVENTS.matcher(extra);
        int end = base.lastIndexOf("</configuration>");
        if (!m.find() || end < 0) {
            throw new IllegalArgumentException("not a .jfc configuration");
        }
        return base.substring(0, end) + "    <!-- Cumulus events -->\n" + m.group(1).strip() + "\n\n" + base.substring(end);
    }

    static String resource() {
        try (InputStream in = ProfileSettings.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new CumulusException("the Cumulus JFR settings (" + RESOURCE + ") are missing from the launcher's "
                    + "classpath; rebuild with ./build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CumulusException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }
}
