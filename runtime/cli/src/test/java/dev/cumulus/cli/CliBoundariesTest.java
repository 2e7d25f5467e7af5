package dev.cumulus.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

/**
 * The boundaries of ARCHITECTURE.md seen from the CLI, whose classpath is what a user's runtime gets: every runtime
 * module (runtime, analysis, agent, profiler, CLI) reaches Aeron only through the transport package, and the
 * benchmarks and their peers are no part of it.
 */
@Timeout(120)
class CliBoundariesTest {
    @Test
    void onlyTheTransportImportsAeronInAnyRuntimeModule() {
        JavaClasses runtime = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cumulus");
        noClasses().that().resideOutsideOfPackage("dev.cumulus.internal.transport..")
            .should().dependOnClassesThat().resideInAPackage("io.aeron..")
            .because("Boundary: only dev.cumulus.internal.transport imports io.aeron (the CLI reaches Aeron only "
                + "through DriverHost)")
            .check(runtime);
    }

    @Test
    void theBenchmarksAndTheirPeersAreNotOnTheClasspath() {
        // The CLI's test classpath is its runtime classpath plus test-only jars that bring none of these.
        for (String name : List.of("dev.cumulus.bench.BenchMain", "org.jgroups.JChannel", "com.hazelcast.core.Hazelcast")) {
            assertThrows(ClassNotFoundException.class,
                () -> Class.forName(name, false, CliBoundariesTest.class.getClassLoader()),
                name + " is on the CLI's classpath: cumulus bench runs the benchmarks in a JVM of their own");
        }
    }
}
