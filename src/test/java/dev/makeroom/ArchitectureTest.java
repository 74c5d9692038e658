package dev.makeroom;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
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

    /** The wire protocol asks the core through its ports (the view, the decision events), never the adapter. */
    @Test
    void the_wire_protocol_knows_nothing_of_the_cluster_adapter() {
        noClasses().that().resideInAPackage("dev.makeroom.web..")
                .should().dependOnClassesThat().resideInAPackage("dev.makeroom.cluster..")
                .check(classes);
    }

    /** docs/design.md lists what each top-level package uses besides the core: that list is the code's, both ways. */
    @Test
    void the_packages_use_exactly_what_the_design_lists() throws IOException {
        Map<String, Set<String>> listed = new TreeMap<>();
        Pattern line = Pattern.compile("^- (\\w+) → (.+)$");
        for (String text : Files.readAllLines(Path.of("docs/design.md"))) {
            Matcher m = line.matcher(text);
            if (m.matches()) {
                Set<String> uses = new TreeSet<>();
                if (!m.group(2).equals("(nothing)")) {
                    uses.addAll(List.of(m.group(2).split(", ")));
                }
                listed.put(m.group(1), uses);
            }
        }
        Map<String, Set<String>> used = new TreeMap<>();
        for (JavaClass c : classes) {
            String from = topLevel(c.getPackageName());
            if (from == null || from.equals("core")) {
                continue;
            }
            Set<String> uses = used.computeIfAbsent(from, k -> new TreeSet<>());
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = topLevel(d.getTargetClass().getPackageName());
                if (to != null && !to.equals(from) && !to.equals("core")) {
                    uses.add(to);
                }
            }
        }
        assertThat(listed).as("docs/design.md, section 4").isEqualTo(used);
    }

    /** docs/design.md lists what each package inside the core uses: that list is the code's, both ways. */
    @Test
    void the_core_packages_use_exactly_what_the_design_lists() throws IOException {
        Map<String, Set<String>> listed = new TreeMap<>();
        Pattern line = Pattern.compile("^- core\\.(\\w+) → (.+)$");
        for (String text : Files.readAllLines(Path.of("docs/design.md"))) {
            Matcher m = line.matcher(text);
            if (m.matches()) {
                listed.put(m.group(1), m.group(2).equals("(nothing)") ? Set.of()
                        : new TreeSet<>(List.of(m.group(2).split(", "))));
            }
        }
        // from the sources' imports: a constant the compiler inlines leaves no trace in the bytecode
        Map<String, Set<String>> used = new TreeMap<>();
        SourcePackageGraph.of(Path.of("src/main/java/dev/makeroom/core"), "dev.makeroom.core.").imports()
                .forEach((from, to) -> used.computeIfAbsent(inCore(from), k -> new TreeSet<>())
                        .addAll(to.stream().map(ArchitectureTest::inCore).filter(p -> !p.equals(inCore(from))).toList()));
        assertThat(listed).as("docs/design.md, section 4, inside core").isEqualTo(used);
    }

    /** {@code preemption} for {@code dev.makeroom.core.preemption}; null outside the core's packages. */
    private static String inCore(String packageName) {
        if (!packageName.startsWith("dev.makeroom.core.")) {
            return null;
        }
        String rest = packageName.substring("dev.makeroom.core.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** {@code web} for {@code dev.makeroom.web.x}; null outside makeroom's packages and for the root. */
    private static String topLevel(String packageName) {
        if (!packageName.startsWith("dev.makeroom.")) {
            return null;
        }
        String rest = packageName.substring("dev.makeroom.".length());
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
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
        slices().matching("dev.makeroom.core.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** What a reader follows: every package's imports, those only a Javadoc link uses included. */
    @Test
    void the_sources_import_each_other_without_cycles() {
        assertThat(SourcePackageGraph.of(Path.of("src/main/java"), "dev.makeroom").cycles()).isEmpty();
    }

    @Test
    void the_source_scan_sees_a_cycle_closed_by_a_javadoc_import(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("a"));
        Files.createDirectories(root.resolve("b"));
        Files.writeString(root.resolve("a/A.java"), "package dev.makeroom.a;\n\nimport dev.makeroom.b.B;\n\n"
                + "public class A { B b; }\n");
        Files.writeString(root.resolve("b/B.java"), "package dev.makeroom.b;\n\nimport dev.makeroom.a.A;\n\n"
                + "/** Made for {@link A}. */\npublic class B { }\n");
        assertThat(SourcePackageGraph.of(root, "dev.makeroom").cycles())
                .containsExactly(Set.of("dev.makeroom.a", "dev.makeroom.b"));
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
        JavaClasses writer = new ClassFileImporter().importPackages("dev.makeroom.queueconfig");
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
