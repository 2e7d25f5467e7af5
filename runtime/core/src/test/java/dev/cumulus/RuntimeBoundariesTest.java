package dev.cumulus;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The boundaries of ARCHITECTURE.md that concern runtime/core, checked on its compiled main classes. Each rule names
 * the boundary it keeps; a failure lists every offending dependency.
 */
@Timeout(120)
class RuntimeBoundariesTest {
    private static final JavaClasses CORE = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.cumulus");

    private static final String TRANSPORT = "dev.cumulus.internal.transport..";
    /**
     * The packages of the modules above runtime/core: the capabilities (runtime/arrays, runtime/pastset, runtime/clouds,
     * runtime/singlevm), the standing cluster's service (runtime/service) and the launched node (runtime/launch).
     */
    private static final String[] CAPABILITY_MODULES = {"dev.cumulus.internal.array..", "dev.cumulus.internal.pastset..",
        "dev.cumulus.internal.cloud..", "dev.cumulus.internal.singlevm..", "dev.cumulus.internal.service..",
        "dev.cumulus.internal.launch.."};
    private static final String[] PUBLIC_API = {"dev.cumulus", "dev.cumulus.array..", "dev.cumulus.pastset.."};

    @Test
    void onlyTheTransportImportsAeron() {
        noClasses().that().resideOutsideOfPackage(TRANSPORT)
            .should().dependOnClassesThat().resideInAPackage("io.aeron..")
            .because("Boundary: only dev.cumulus.internal.transport imports io.aeron")
            .check(CORE);
    }

    @Test
    void coreKnowsNoCapabilityModule() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage(CAPABILITY_MODULES)
            .because("Boundary: runtime/core depends on no capability module; the Cluster reaches each through its "
                + "interface in dev.cumulus.internal.capability, the node creates them from the "
                + "NodeServices.Providers on its class path; nor on the standing cluster's service, reached through "
                + "ClientService, ClusterConnector and RemoteStreamsHook; nor on the launched node, reached through "
                + "LaunchedJoin")
            .check(CORE);
    }

    @Test
    void capabilitySpiNamesOnlyThePublicApi() {
        noClasses().that().resideInAPackage("dev.cumulus.internal.capability..")
            .should().dependOnClassesThat(resideInAPackage("dev.cumulus.internal..")
                .and(not(resideInAPackage("dev.cumulus.internal.capability.."))))
            .because("Boundary: the capability interfaces speak the public API's types only")
            .check(CORE);
    }

    @Test
    void internalPackagesFormNoCycle() {
        slices().matching("dev.cumulus.internal.(*)..").should().beFreeOfCycles()
            .because("Boundary: no package cycles among runtime/core's packages")
            .check(CORE);
    }

    @Test
    void onlyThePublicEntryPointsReachIntoInternalPackages() {
        noClasses().that().resideInAnyPackage(PUBLIC_API)
            .and().doNotBelongToAnyOf(Cluster.class, LocalCluster.class, Remote.class, AsyncTicket.class,
                Transfers.class, Migration.class, RemoteIO.class)
            .should().dependOnClassesThat().resideInAPackage("dev.cumulus.internal..")
            .because("Boundary: the public API's types are what the internal packages build on; only its entry "
                + "points (Cluster.join, LocalCluster, Remote, AsyncTicket, Transfers, Migration.point, RemoteIO) call into the "
                + "implementation")
            .check(CORE);
    }

    @Test
    void publicApiExposesNoInternalTypes() {
        classes().that().resideInAnyPackage(PUBLIC_API).and().arePublic()
            .should(exposeNoInternalTypes())
            .because("Boundary: the public API's signatures name public API and JDK types only")
            .check(CORE);
    }

    private static ArchCondition<JavaClass> exposeNoInternalTypes() {
        return new ArchCondition<>("name no dev.cumulus.internal type in a public or protected signature") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                List<String> found = new ArrayList<>();
                if (type.getRawSuperclass().isPresent() && isInternal(type.getRawSuperclass().get())) {
                    found.add("extends " + type.getRawSuperclass().get().getName());
                }
                type.getRawInterfaces().stream().filter(RuntimeBoundariesTest::isInternal)
                    .forEach(i -> found.add("implements " + i.getName()));
                for (JavaMember member : type.getMembers()) {
                    Set<JavaModifier> modifiers = member.getModifiers();
                    if (!modifiers.contains(JavaModifier.PUBLIC) && !modifiers.contains(JavaModifier.PROTECTED)) {
                        continue;
                    }
                    Set<String> internal = new TreeSet<>();
                    for (JavaType t : signatureTypes(member)) {
                        t.getAllInvolvedRawTypes().stream().filter(RuntimeBoundariesTest::isInternal)
                            .forEach(c -> internal.add(c.getName()));
                    }
                    internal.forEach(c -> found.add(member.getFullName() + " names " + c));
                }
                found.forEach(f -> events.add(SimpleConditionEvent.violated(type, f)));
            }
        };
    }

    private static List<JavaType> signatureTypes(JavaMember member) {
        List<JavaType> types = new ArrayList<>();
        if (member instanceof JavaField field) {
            types.add(field.getType());
        } else if (member instanceof JavaCodeUnit code) {
            types.add(code.getReturnType());
            types.addAll(code.getParameterTypes());
            code.getThrowsClause().getTypes().forEach(types::add);
        }
        return types;
    }

    private static boolean isInternal(JavaClass c) {
        return resideInAnyPackage("dev.cumulus.internal..").test(c);
    }
}
