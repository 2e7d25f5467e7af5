package dev.cumulus.cli.profile;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The recording settings of a profiled run: the shipped resource {@code cumulus-profile.jfc}, exactly the events the
 * profile reads (the Cumulus events, and the JDK's CPU samples, allocation samples, collections and parks at the rates
 * of the JDK's default.jfc) and nothing else, so that recording costs the program as little as it can.
 */
public final class ProfileSettings {
    static final String RESOURCE = "cumulus-profile.jfc";

    private ProfileSettings() {
    }

    /** The .jfc text to write into the run directory. */
    public static String jfc() {
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
