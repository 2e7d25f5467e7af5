package dev.cumulus.cli.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jdk.jfr.Event;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every JFR event class of the runtime modules (the CLI's classpath is what a node gets) is listed in its module's
 * {@code META-INF/cumulus/jfr-events}, so a profiled node registers it at start (the agent's {@code RecordedEvents})
 * instead of in the program's first computation; and every listed name is such a class.
 */
@Timeout(120)
class ProfileEventListsTest {
    private static final String LISTS = "META-INF/cumulus/jfr-events";

    @Test
    void everyRuntimeEventClassIsListedAndEveryListedNameIsOne() throws IOException {
        Set<String> events = new TreeSet<>();
        for (JavaClass c : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.cumulus.internal")) {
            if (c.isAssignableTo(Event.class) && !c.getModifiers().contains(JavaModifier.ABSTRACT)) {
                events.add(c.getName());
            }
        }
        Set<String> listed = new TreeSet<>();
        for (URL list : Collections.list(getClass().getClassLoader().getResources(LISTS))) {
            try (InputStream in = list.openStream()) {
                new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(listed::add);
            }
        }
        assertEquals(events, listed, "the event classes of the runtime modules and the names in their " + LISTS
            + " differ: list each event class in its own module's file");
    }
}
