package dev.cumulus.lsp.model;

import java.nio.file.Path;
import java.util.List;

/**
 * The classpath the project's sources compile against.
 *
 * @param entries    jars and class folders
 * @param apiPresent whether the Cumulus API ({@code dev.cumulus.Cloud}) is on it
 * @param origin     where it came from, for messages ("pom.xml", "initialization option cumulusClasspath", ...)
 */
public record ClasspathInfo(List<Path> entries, boolean apiPresent, String origin) {
    public ClasspathInfo {
        entries = List.copyOf(entries);
    }

    public static ClasspathInfo none() {
        return new ClasspathInfo(List.of(), false, "none");
    }
}
