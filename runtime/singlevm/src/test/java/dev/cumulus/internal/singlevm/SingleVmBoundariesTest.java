package dev.cumulus.internal.singlevm;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.node.NodeSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** ARCHITECTURE.md's capability boundary, kept by the single-VM heap as by the capabilities inside runtime/core. */
@Timeout(60)
class SingleVmBoundariesTest {
    private static final JavaClasses SINGLE_VM = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.cumulus.internal.singlevm");

    @Test
    void reachesOtherNodesOnlyThroughNodeServices() {
        noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("dev.cumulus.internal.transport..", "io.aeron..",
                "dev.cumulus.internal.cluster..")
            .orShould().dependOnClassesThat(resideInAPackage("dev.cumulus.internal.node..")
                .and(not(belongToAnyOf(NodeServices.class, NodeSettings.class))))
            .because("Boundary: capabilities talk to other nodes through NodeServices, never through the transport "
                + "(nor through the node's other classes, nor the facade above them)")
            .check(SINGLE_VM);
    }
}
