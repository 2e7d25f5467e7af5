package dev.cumulus.internal.launch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cumulus.internal.rpc.ClientService;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ARCHITECTURE.md's boundary of runtime/launch: it starts a node through the composition root and the node's settings,
 * never through the node's protocol, the RPC engine or a capability, and imports no Aeron.
 */
@Timeout(60)
class LaunchBoundariesTest {
    private static final JavaClasses LAUNCH = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages("dev.cumulus.internal.launch");

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        noClasses()
            .should().dependOnClassesThat(resideInAPackage("dev.cumulus.internal..")
                .and(not(resideInAnyPackage("dev.cumulus.internal.launch..", "dev.cumulus.internal.capability..",
                    "dev.cumulus.internal.cluster..", "dev.cumulus.internal.node..", "dev.cumulus.internal.transport..",
                    "dev.cumulus.internal.auth..", "dev.cumulus.internal.rpc.."))))
            .orShould().dependOnClassesThat(resideInAPackage("dev.cumulus.internal.rpc..")
                .and(not(belongToAnyOf(ClientService.class, ClientService.Factory.class))))
            .because("Boundary: the launched node starts its node through NodeCluster with NodeSettings, a transport "
                + "context and the run's secret (a standing cluster's server with its ClientService), and reaches a "
                + "standing cluster as a client through ClusterConnector; nothing of the protocol or the engine")
            .check(LAUNCH);
    }

    @Test
    void importsNoAeron() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("io.aeron..", "org.agrona..")
            .because("Boundary: only dev.cumulus.internal.transport imports io.aeron")
            .check(LAUNCH);
    }
}
