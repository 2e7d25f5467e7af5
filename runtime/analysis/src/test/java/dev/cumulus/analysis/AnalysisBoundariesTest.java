package dev.cumulus.analysis;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The analysis library's boundary of ARCHITECTURE.md, checked on its compiled main classes. */
@Timeout(120)
class AnalysisBoundariesTest {
    private static final JavaClasses ANALYSIS = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.cumulus.analysis");

    @Test
    void hasNoTransportRuntimeOrLspDependency() {
        noClasses().that().resideInAPackage("dev.cumulus.analysis..")
            .should().dependOnClassesThat().resideInAnyPackage("io.aeron..", "org.agrona..", "dev.cumulus.internal..",
                "dev.cumulus.lsp..", "org.eclipse.lsp4j..", "org.eclipse.jdt..")
            .because("Boundary: the restriction checker exists once, in runtime/analysis, a library with no "
                + "transport and no LSP dependency that the agent, cumulus check and the language server all call")
            .check(ANALYSIS);
    }
}
