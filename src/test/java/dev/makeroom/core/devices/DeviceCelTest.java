package dev.makeroom.core.devices;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** DRA's CEL environment: the device variable as the scheduler gives it, and the Kubernetes functions. */
class DeviceCelTest {

    private static final String DRIVER = "gpu.example.com";
    private static final Device GPU = new Device("gpu-0",
            Map.of("gpu.example.com/model", new DeviceAttribute.StringValue("H100"),
                    "gpu.example.com/index", new DeviceAttribute.IntValue(0),
                    "gpu.example.com/driverVersion", new DeviceAttribute.VersionValue(DeviceVersion.parse("1.2.3")),
                    "example.com/numa", new DeviceAttribute.IntValue(1),
                    "gpu.example.com/mig", new DeviceAttribute.BoolValue(false)),
            Map.of("gpu.example.com/memory", DeviceCapacity.of(DeviceQuantity.parse("80Gi"))), List.of(), List.of(), false, "");

    private final DeviceCel cel = new DeviceCel();

    private boolean matches(String expression) throws DeviceSelectors.SelectorError {
        return cel.matches(expression, DRIVER, GPU);
    }

    @Test
    void selectors_read_the_devices_driver_attributes_and_capacities_by_domain() throws Exception {
        assertThat(matches("device.driver == \"gpu.example.com\"")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].model == \"H100\"")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].model == \"A100\"")).isFalse();
        assertThat(matches("device.attributes[\"example.com\"].numa == 1")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].index < 4 && !device.attributes[\"gpu.example.com\"].mig")).isTrue();
        assertThat(matches("device.allowMultipleAllocations == false")).isTrue();
        // an unknown domain is an empty map: has() and 'in' guard it
        assertThat(matches("has(device.attributes[\"other.example.com\"].model)")).isFalse();
        assertThat(matches("\"model\" in device.attributes[\"gpu.example.com\"]")).isTrue();
    }

    @Test
    void quantities_compare_exactly_whatever_their_suffix() throws Exception {
        assertThat(matches("device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"40Gi\")) > 0")).isTrue();
        assertThat(matches("device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity(\"85899345920\"))")).isFalse();
        assertThat(matches("device.capacity[\"gpu.example.com\"].memory.compareTo(quantity(\"85899345920\")) == 0")).isTrue();
        assertThat(matches("device.capacity[\"gpu.example.com\"].memory.isLessThan(quantity(\"81G\"))")).isFalse();
        assertThat(matches("quantity(\"1.5\").isInteger() == false && quantity(\"2k\").asInteger() == 2000")).isTrue();
        assertThat(matches("quantity(\"500m\").add(quantity(\"500m\")).compareTo(quantity(\"1\")) == 0")).isTrue();
        assertThat(matches("quantity(\"1\").sub(2).sign() == -1 && isQuantity(\"1Gi\") && !isQuantity(\"1Gb\")")).isTrue();
    }

    @Test
    void versions_compare_by_semantic_precedence() throws Exception {
        assertThat(matches("device.attributes[\"gpu.example.com\"].driverVersion.isGreaterThan(semver(\"1.2.0\"))")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].driverVersion.isLessThan(semver(\"1.10.0\"))")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].driverVersion.compareTo(semver(\"1.2.3\")) == 0")).isTrue();
        assertThat(matches("semver(\"1.0.0-rc.1\").isLessThan(semver(\"1.0.0\"))")).isTrue();
        assertThat(matches("semver(\"1.0.0-alpha.2\").isLessThan(semver(\"1.0.0-alpha.10\"))")).isTrue();
        assertThat(matches("semver(\"v1.2\", true).minor() == 2 && semver(\"v1.2\", true).patch() == 0")).isTrue();
        assertThat(matches("isSemver(\"1.2.3\") && !isSemver(\"1.2\") && isSemver(\"v1.2\", true)")).isTrue();
    }

    @Test
    void an_unknown_attribute_is_an_evaluation_error_and_an_unknown_function_is_not_modelled() {
        assertThatThrownBy(() -> matches("device.attributes[\"gpu.example.com\"].vendor == \"x\""))
                .isInstanceOf(DeviceSelectors.SelectorError.class)
                .satisfies(e -> assertThat(((DeviceSelectors.SelectorError) e).unmodelled()).isFalse());
        assertThatThrownBy(() -> matches("ip(\"10.0.0.1\").family() == 4"))
                .isInstanceOf(DeviceSelectors.SelectorError.class)
                .satisfies(e -> assertThat(((DeviceSelectors.SelectorError) e).unmodelled()).isTrue());
        assertThatThrownBy(() -> matches("quantity(\"1Gb\").sign() == 1"))
                .isInstanceOf(DeviceSelectors.SelectorError.class).hasMessageContaining("quantit");
    }

    @Test
    void extension_libraries_a_selector_may_use_are_there() throws Exception {
        assertThat(matches("device.attributes[\"gpu.example.com\"].model.lowerAscii() == \"h100\"")).isTrue();
        assertThat(matches("cel.bind(m, device.attributes[\"gpu.example.com\"].model, m.startsWith(\"H\") && m.size() == 4)")).isTrue();
        assertThat(matches("sets.contains([\"H100\", \"A100\"], [device.attributes[\"gpu.example.com\"].model])")).isTrue();
        assertThat(matches("device.attributes[\"gpu.example.com\"].model.matches(\"^H[0-9]+$\")")).isTrue();
    }
}
