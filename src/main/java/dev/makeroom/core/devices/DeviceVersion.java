package dev.makeroom.core.devices;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version (semver 2.0.0: {@code 1.2.3-rc.1+build}), as a device's {@code version}
 * attribute and CEL's {@code semver()} give it: ordered by precedence (build metadata ignored,
 * a pre-release before its release, numeric identifiers numerically); {@code text} is kept for
 * {@code matchAttribute}, which compares versions as their text.
 */
public record DeviceVersion(String text, long major, long minor, long patch, List<String> preRelease)
        implements Comparable<DeviceVersion> {

    private static final Pattern SEMVER = Pattern.compile(
            "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
                    + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
                    + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");

    public DeviceVersion {
        preRelease = List.copyOf(preRelease);
    }

    /** The version {@code text} says; an IllegalArgumentException when it is not semver. */
    public static DeviceVersion parse(String text) {
        Matcher m = text == null ? null : SEMVER.matcher(text);
        if (m == null || !m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a semantic version");
        }
        return new DeviceVersion(text, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), m.group(4) == null ? List.of() : List.of(m.group(4).split("\\.")));
    }

    /** Whether {@code text} is a semantic version. */
    public static boolean valid(String text) {
        return text != null && SEMVER.matcher(text).matches();
    }

    @Override
    public int compareTo(DeviceVersion other) {
        int c = Long.compare(major, other.major);
        c = c != 0 ? c : Long.compare(minor, other.minor);
        c = c != 0 ? c : Long.compare(patch, other.patch);
        if (c != 0) {
            return c;
        }
        if (preRelease.isEmpty() || other.preRelease.isEmpty()) {
            return Boolean.compare(preRelease.isEmpty(), other.preRelease.isEmpty()); // a release after its pre-releases
        }
        for (int i = 0; i < Math.min(preRelease.size(), other.preRelease.size()); i++) {
            c = identifier(preRelease.get(i), other.preRelease.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(preRelease.size(), other.preRelease.size());
    }

    private static int identifier(String a, String b) {
        boolean an = a.chars().allMatch(Character::isDigit);
        boolean bn = b.chars().allMatch(Character::isDigit);
        if (an && bn) {
            return new java.math.BigInteger(a).compareTo(new java.math.BigInteger(b));
        }
        if (an != bn) {
            return an ? -1 : 1; // numeric identifiers before alphanumeric ones
        }
        return a.compareTo(b);
    }
}
