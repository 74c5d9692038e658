package dev.makeroom.queueconfig;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Go's {@code time.ParseDuration} syntax ({@code 30s}, {@code 1m30s}, {@code 1.5h}, {@code 250ms}). */
public final class GoDuration {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");
    private static final Map<String, Long> NANOS = Map.of("ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L,
            "ms", 1_000_000L, "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDuration() {
    }

    /** The duration, or null when the text is not one. */
    public static Duration parse(String text) {
        if (text == null) {
            return null;
        }
        String s = text.trim();
        boolean negative = s.startsWith("-");
        if (negative || s.startsWith("+")) {
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            return null;
        }
        Matcher m = PART.matcher(s);
        BigDecimal nanos = BigDecimal.ZERO;
        int at = 0;
        while (at < s.length()) {
            if (!m.find(at) || m.start() != at) {
                return null;
            }
            nanos = nanos.add(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NANOS.get(m.group(2)))));
            at = m.end();
        }
        try {
            Duration d = Duration.ofNanos(nanos.setScale(0, RoundingMode.DOWN).longValueExact());
            return negative ? d.negated() : d;
        } catch (ArithmeticException e) {
            return null; // beyond Go's range
        }
    }
}
