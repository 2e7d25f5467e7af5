package dev.cumulus.internal.migration;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cumulus.internal.capability.CapabilityBoundaries;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.rpc.DeferredReply;
import dev.cumulus.internal.rpc.DefersReply;
import dev.cumulus.internal.rpc.ExportTable;
import dev.cumulus.internal.rpc.MigrationService;
import dev.cumulus.internal.rpc.ObjectGate;
import dev.cumulus.internal.rpc.ObjectMover;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;
import dev.cumulus.internal.rpc.RpcEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ARCHITECTURE.md's boundaries of runtime/migration: of runtime/core it uses the RPC engine's move support (the
 * objects' gates, state and table, the handed calls, {@code ObjectMover}), nothing of the node, its transport or the
 * capabilities.
 */
@Timeout(60)
class MigrationBoundariesTest {
    private static final JavaClasses MIGRATION = CapabilityBoundaries.mainClasses("dev.cumulus.internal.migration");

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        noClasses()
            .should().dependOnClassesThat(resideInAPackage("dev.cumulus.internal..")
                .and(not(resideInAPackage("dev.cumulus.internal.migration..")))
                .and(not(resideInAPackage("dev.cumulus.internal.codec..")))
                .and(not(resideInAPackage("dev.cumulus.internal.jfr..")))
                .and(not(belongToAnyOf(RpcEngine.class, ExportTable.class, ObjectGate.class,
                    ObjectMover.class, MigrationService.class, RemoteInvocationHandler.class, ClientService.class,
                    AccessRule.class, DefersReply.class, DeferredReply.class))))
            .because("Boundary: runtime/migration uses of runtime/core's internals the RPC engine's move support "
                + "(ExportTable, ObjectGate, ObjectMover, MigrationService), the codec and the JFR "
                + "events, nothing of the node or the transport")
            .check(MIGRATION);
    }
}
