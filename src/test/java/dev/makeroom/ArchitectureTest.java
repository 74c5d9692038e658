package dev.makeroom;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

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
    void the_wire_protocol_does_not_serialise_fabric8_or_core_objects_directly() {
        noClasses().that().resideInAPackage("dev.makeroom.web..").and().haveSimpleNameStartingWith("WireDtos")
                .should().dependOnClassesThat().resideInAnyPackage("io.fabric8..", "dev.makeroom.core..")
                .check(classes);
    }
}
