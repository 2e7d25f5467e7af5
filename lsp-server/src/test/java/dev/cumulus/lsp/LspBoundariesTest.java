package dev.cumulus.lsp;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The language server's boundary of ARCHITECTURE.md: it never depends on Aeron (nor on the runtime's internals). */
@Timeout(120)
class LspBoundariesTest {
    private static final String BECAUSE = "Boundary: the language server never depends on Aeron; it talks to runs "
        + "through the profiler's stream";

    @Test
    void serverCodeUsesNoAeronAndNoRuntimeInternals() {
        JavaClasses server = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cumulus.lsp");
        noClasses().that().resideInAPackage("dev.cumulus.lsp..")
            .should().dependOnClassesThat().resideInAnyPackage("io.aeron..", "org.agrona..", "dev.cumulus.internal..")
            .because(BECAUSE)
            .check(server);
    }

    @Test
    void aeronIsNotOnTheServersClasspath() {
        // The test classpath is the server's own plus test-only jars that exclude every transitive dependency, so a
        // dependency that brought Aeron to the server would show here.
        assertThrows(ClassNotFoundException.class,
            () -> Class.forName("io.aeron.Aeron", false, LspBoundariesTest.class.getClassLoader()), BECAUSE);
    }
}
