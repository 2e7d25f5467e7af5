package dev.cumulus.internal.service;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cumulus.internal.capability.CapabilityBoundaries;
import dev.cumulus.internal.node.DutyCycle;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.Brief;
import dev.cumulus.internal.rpc.ClientNameSpace;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.rpc.ExportTable;
import dev.cumulus.internal.rpc.MigrationService;
import dev.cumulus.internal.rpc.NameDirectory;
import dev.cumulus.internal.rpc.RemoteFactory;
import dev.cumulus.internal.rpc.RemoteObjects;
import dev.cumulus.internal.rpc.RpcEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

/**
 * ARCHITECTURE.md's boundaries of runtime/service: of runtime/core it uses the RPC engine's client hook and the classes
 * a client needs to be a member of the cluster's transport, nothing of the capabilities or of the node's protocol.
 */
@Timeout(60)
class ServiceBoundariesTest {
    private static final JavaClasses SERVICE = CapabilityBoundaries.mainClasses("dev.cumulus.internal.service");

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        CapabilityBoundaries.usesOnlyTheseInternalPackages(SERVICE, List.of("dev.cumulus.internal.service.."),
            List.of("dev.cumulus.internal.rpc..", "dev.cumulus.internal.transport..",
                "dev.cumulus.internal.codec..", "dev.cumulus.internal.auth..", "dev.cumulus.internal.launch..",
                "dev.cumulus.internal.jfr.."));
    }

    @Test
    void reachesTheNodeAndItsEngineOnlyThroughTheirHooks() {
        noClasses()
            .should().dependOnClassesThat(resideInAPackage("dev.cumulus.internal.rpc..")
                .and(not(belongToAnyOf(RpcEngine.class, RemoteObjects.class, ClientService.class, ExportTable.class,
                    AccessRule.class, Brief.class, NameDirectory.class, RemoteFactory.class, MigrationService.class,
                    ClientNameSpace.class))))
            .orShould().dependOnClassesThat(resideInAPackage("dev.cumulus.internal.node..")
                .and(not(belongToAnyOf(NodeSettings.class, DutyCycle.class))))
            .orShould().dependOnClassesThat().resideInAPackage("dev.cumulus.internal.cluster..")
            .because("Boundary: the standing cluster's service reaches the RPC engine through ClientService, "
                + "the served objects' table and the engine's public methods, the node only to run a client's duty cycle (DutyCycle, "
                + "NodeSettings); a server starts through runtime/launch's NodeRuntime")
            .check(SERVICE);
    }

    @Test
    void onlyTheTransportImportsAeron() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.aeron..")
            .because("Boundary: only dev.cumulus.internal.transport imports io.aeron")
            .check(SERVICE);
    }
}
