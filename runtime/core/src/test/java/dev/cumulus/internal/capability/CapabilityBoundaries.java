package dev.cumulus.internal.capability;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.node.OrderChannel;

import java.util.ArrayList;
import java.util.List;

/**
 * ARCHITECTURE.md's capability boundary, for the tests of a capability module (runtime/arrays, runtime/pastset,
 * runtime/clouds): the module reaches its node only through {@link NodeServices} (and the {@link NodeSettings} and
 * {@link OrderChannel} it hands out), and of runtime/core's internal packages uses only the capability SPI and those it names.
 */
public final class CapabilityBoundaries {
    private CapabilityBoundaries() {
    }

    /** The main classes of the module under test: those in {@code packages} that are not test classes. */
    public static JavaClasses mainClasses(String... packages) {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(packages);
    }

    /** Checks that {@code module} talks to other nodes only through {@link NodeServices}. */
    public static void reachesOtherNodesOnlyThroughNodeServices(JavaClasses module) {
        noClasses()
            .should().dependOnClassesThat().resideInAnyPackage("dev.cumulus.internal.transport..", "io.aeron..",
                "dev.cumulus.internal.cluster..")
            .orShould().dependOnClassesThat(resideInAPackage("dev.cumulus.internal.node..")
                .and(not(belongToAnyOf(NodeServices.class, NodeSettings.class, OrderChannel.class))))
            .because("Boundary: capabilities talk to other nodes through NodeServices, never through the transport "
                + "(nor through the node's other classes, nor the facade above them)")
            .check(module);
    }

    /**
     * Checks that {@code module} (whose own packages are {@code own}) uses of runtime/core's internal packages only
     * the capability SPI, the node's {@code NodeServices} and {@code used}.
     */
    public static void usesOnlyTheseInternalPackages(JavaClasses module, List<String> own, List<String> used) {
        List<String> allowed = new ArrayList<>(own);
        allowed.addAll(used);
        allowed.add("dev.cumulus.internal.capability..");
        allowed.add("dev.cumulus.internal.node..");
        noClasses()
            .should().dependOnClassesThat(resideInAPackage("dev.cumulus.internal..")
                .and(not(resideInAnyPackage(allowed.toArray(String[]::new)))))
            .because("Boundary: a capability module uses of runtime/core's internals only the capability SPI and the "
                + "packages ARCHITECTURE.md lists for it: " + used)
            .check(module);
    }
}
