package dev.makeroom.core.devices;

/**
 * One typed attribute value of a device: exactly one of int, bool, string or version, as the
 * ResourceSlice says it. {@code matchAttribute} asks for the same type and value.
 */
public sealed interface DeviceAttribute {

    /** The value CEL sees: a Long, Boolean, String or {@link DeviceVersion}. */
    Object celValue();

    record IntValue(long value) implements DeviceAttribute {
        @Override
        public Object celValue() {
            return value;
        }
    }

    record BoolValue(boolean value) implements DeviceAttribute {
        @Override
        public Object celValue() {
            return value;
        }
    }

    record StringValue(String value) implements DeviceAttribute {
        @Override
        public Object celValue() {
            return value;
        }
    }

    /** Compared as text by {@code matchAttribute} (as the scheduler does), as versions by CEL. */
    record VersionValue(DeviceVersion value) implements DeviceAttribute {
        @Override
        public Object celValue() {
            return value;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof VersionValue v && v.value.text().equals(value.text());
        }

        @Override
        public int hashCode() {
            return value.text().hashCode();
        }
    }
}
