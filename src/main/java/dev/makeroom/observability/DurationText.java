package dev.makeroom.observability;

import java.math.BigDecimal;
import java.time.Duration;

/** Durations as an operator writes them in makeroom's settings: {@code 5s}, {@code 1m}, {@code 1h30m}, {@code 1.5s}, {@code 250ms}. */
public final class DurationText {

    private DurationText() {
    }

    public static String of(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms % 1000 != 0) {
            return ms < 1000 ? ms + "ms" : BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + "s";
        }
        long seconds = ms / 1000;
        StringBuilder text = new StringBuilder();
        if (seconds >= 3600) {
            text.append(seconds / 3600).append('h');
        }
        if (seconds % 3600 >= 60) {
            text.append(seconds % 3600 / 60).append('m');
        }
        if (seconds % 60 != 0) {
            text.append(seconds % 60).append('s');
        }
        return text.toString();
    }
}
