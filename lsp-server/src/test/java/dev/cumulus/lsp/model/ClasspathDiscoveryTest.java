package dev.cumulus.lsp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The Maven classpath: resolved with the real mvn, cached outside the project, re-resolved when pom.xml changes. */
@Timeout(600)
class ClasspathDiscoveryTest {
    @TempDir
    Path project;
    @TempDir
    Path cache;

    private static final String POM = """
            <project xmlns="http://maven.apache.org/POM/4.0.0">
              <modelVersion>4.0.0</modelVersion>
              <groupId>org.example</groupId><artifactId>plain</artifactId><version>1</version>
            </project>
            """;

    @Test
    void resolvesOnceCachesOutsideTheProjectAndNoticesAPomChange() throws Exception {
        Files.writeString(project.resolve("pom.xml"), POM);
        List<String> first = new ArrayList<>();
        ClasspathInfo info = ClasspathDiscovery.discover(project, null, null, cache, first::add);
        assertEquals("pom.xml", info.origin(), first.toString());
        assertTrue(first.getFirst().contains("offline"), first.toString());
        assertTrue(Files.isRegularFile(ClasspathDiscovery.cacheFile(cache, project)));
        try (var files = Files.list(project)) {
            assertEquals(List.of(project.resolve("pom.xml")), files.toList(), "nothing written into the project");
        }

        List<String> second = new ArrayList<>();
        ClasspathDiscovery.discover(project, null, null, cache, second::add);
        assertEquals(List.of("Maven classpath from the cache (pom.xml unchanged)"), second);

        Files.writeString(project.resolve("pom.xml"), POM.replace("<version>1</version>", "<version>2</version>"));
        List<String> third = new ArrayList<>();
        ClasspathDiscovery.discover(project, null, null, cache, third::add);
        assertFalse(third.stream().anyMatch(m -> m.contains("from the cache")), third.toString());
    }
}
