package dev.makeroom.core.model;

import java.util.StringJoiner;

/**
 * Amounts as Kubernetes writes them, for people: makeroom keeps cpu in millicores and memory in
 * bytes, and an operator reads {@code cpu=2000, memory=1073741824} slower than {@code cpu 2, memory 1Gi}.
 */
public final class Amounts {

    private static final String[] BINARY = {"Ki", "Mi", "Gi", "Ti", "Pi"};

    private Amounts() {
    }

    /** "cpu 2, memory 1Gi", in the resources' own order. */
    public static String spelled(Resources resources) {
        StringJoiner text = new StringJoiner(", ");
        for (int i = 0; i < resources.size(); i++) {
            text.add(resources.name(i) + " " + spelled(resources.name(i), resources.value(i)));
        }
        return text.length() == 0 ? "nothing" : text.toString();
    }

    /** One amount: cpu from millicores ("500m", "2"), bytes with the largest exact binary suffix ("1Gi", "1536Mi"). */
    public static String spelled(String resource, long amount) {
        if (resource.equals("cpu")) {
            return amount % 1000 == 0 ? Long.toString(amount / 1000) : amount + "m";
        }
        if (isBytes(resource) && amount != 0) {
            long value = amount;
            int suffix = -1;
            while (suffix + 1 < BINARY.length && value % 1024 == 0) {
                value /= 1024;
                suffix++;
            }
            return suffix < 0 ? Long.toString(amount) : value + BINARY[suffix];
        }
        return Long.toString(amount);
    }

    private static boolean isBytes(String resource) {
        return resource.equals("memory") || resource.equals("ephemeral-storage") || resource.startsWith("hugepages-");
    }
}
