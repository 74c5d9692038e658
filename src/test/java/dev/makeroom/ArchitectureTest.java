package dev.makeroom;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArchitectureTest {

    private final JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.makeroom");

    @Test
    void the_core_is_pure_java() {
        noClasses().that().resideInAPackage("dev.makeroom.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.springframework..", "io.fabric8..", "com.fasterxml..", "tools.jackson..", "io.micrometer..")
                .check(classes);
    }

    @Test
    void the_core_knows_nothing_of_the_adapters() {
        noClasses().that().resideInAPackage("dev.makeroom.core..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.makeroom.web..", "dev.makeroom.cluster..", "dev.makeroom.config..", "dev.makeroom.debug..",
                        "dev.makeroom.observability..")
                .check(classes);
    }

    @Test
    void the_packages_depend_on_each_other_without_cycles() {
        slices().matching("dev.makeroom.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** The root holds only the application's entry point: a package that used it would close a cycle through it. */
    @Test
    void no_package_depends_on_the_application_root() {
        noClasses().that().resideOutsideOfPackage("dev.makeroom")
                .should().dependOnClassesThat().resideInAPackage("dev.makeroom")
                .check(classes);
    }

    @Test
    void the_core_packages_depend_on_each_other_without_cycles() {
        // the model's fast paths (model.fast) are built by the snapshot they index: one slice with it
        slices().matching("dev.makeroom.core.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** The Kubernetes API verbs that change something; makeroom changes the cluster from one place only. */
    private static final Set<String> WRITES = Set.of("create", "createOr", "createOrReplace", "update", "updateStatus",
            "patch", "patchStatus", "edit", "editStatus", "replace", "replaceStatus", "delete", "evict", "serverSideApply",
            "scale");

    private static ArchRule writesOnlyFromTheClusterAdapter() {
        return noClasses().that().resideOutsideOfPackage("dev.makeroom.cluster..")
                .should().callMethodWhere(DescribedPredicate.describe("a fabric8 write",
                        (JavaMethodCall call) -> call.getTargetOwner().getPackageName().startsWith("io.fabric8.kubernetes.client")
                                && WRITES.contains(call.getName())));
    }

    @Test
    void only_the_cluster_adapter_writes_to_the_kubernetes_api() {
        writesOnlyFromTheClusterAdapter().check(classes);
    }

    @Test
    void the_write_rule_catches_a_write_outside_the_cluster_adapter() {
        // a test outside the adapter that creates objects on the mock API: the rule must see it
        JavaClasses writer = new ClassFileImporter().importPackages("dev.makeroom.queues");
        assertThatThrownBy(() -> writesOnlyFromTheClusterAdapter().check(writer)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("a fabric8 write");
    }

    @Test
    void the_wire_protocol_does_not_serialise_fabric8_or_core_objects_directly() {
        noClasses().that().resideInAPackage("dev.makeroom.web..").and().haveSimpleNameStartingWith("WireDtos")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "dev.makeroom.core..")
                .check(classes);
    }
}
