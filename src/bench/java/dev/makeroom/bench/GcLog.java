package dev.makeroom.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The GC log of a makeroom started with {@code -Xlog:gc:file=…} ({@link #jvmArg}): the pauses written
 * since a mark, as the collector timed them ("GC(12) Pause Young (Normal) (G1 Evacuation Pause)
 * 300M->20M(512M) 3.456ms"), and when the application was stopped or marked, on the wall clock (each
 * line starts with its time), to line up with requests.
 */
final class GcLog {

    private static final Pattern PAUSE = Pattern.compile("Pause (\\S+).* ([0-9.]+)ms$");
    private static final Pattern WALL = Pattern.compile("^\\[([^]]+)]");
    private static final Pattern MARKING = Pattern.compile("GC\\((\\d+)\\) Concurrent Mark Cycle( [0-9.]+ms)?$");
    private static final java.time.format.DateTimeFormatter TIME =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    private final Path file;

    GcLog(Path file) {
        this.file = file;
    }

    String jvmArg() {
        return "-Xlog:gc:file=" + file + ":time,uptime,level,tags";
    }

    /** Where the log ends now: pauses after this are the next phase's. */
    long mark() throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** The pauses logged since {@code mark}, full collections excepted when {@code withoutFull} (those a tool asked for). */
    List<Pause> since(long mark, boolean withoutFull) throws IOException {
        byte[] all = Files.readAllBytes(file);
        String added = new String(all, (int) Math.min(mark, all.length), (int) Math.max(0, all.length - mark),
                StandardCharsets.UTF_8);
        List<Pause> pauses = new ArrayList<>();
        for (String line : added.split("\n")) {
            Matcher m = PAUSE.matcher(line.trim());
            if (m.find() && !(withoutFull && m.group(1).equals("Full"))) {
                pauses.add(new Pause(m.group(1), Double.parseDouble(m.group(2))));
            }
        }
        return pauses;
    }

    /** One stop of the application: its kind (Young, Remark, Cleanup, Full) and length. */
    record Pause(String kind, double millis) {
    }

    /** When the application was stopped ({@code marking} false) or a concurrent marking cycle ran, in wall-clock ms. */
    record Window(long fromMillis, long toMillis, boolean marking) {
        boolean overlaps(long from, long to) {
            return from <= toMillis && fromMillis <= to;
        }
    }

    /** Every pause and marking cycle the log holds, on the wall clock. */
    List<Window> windows() throws IOException {
        List<Window> windows = new ArrayList<>();
        java.util.Map<String, Long> markingFrom = new java.util.HashMap<>();
        for (String line : Files.readAllLines(file)) {
            Matcher wall = WALL.matcher(line);
            if (!wall.find()) {
                continue;
            }
            long at = java.time.OffsetDateTime.parse(wall.group(1), TIME).toInstant().toEpochMilli();
            Matcher pause = PAUSE.matcher(line.trim());
            Matcher marking = MARKING.matcher(line.trim());
            if (pause.find()) {
                windows.add(new Window(at - (long) Math.ceil(Double.parseDouble(pause.group(2))), at, false));
            } else if (marking.find() && marking.group(2) == null) {
                markingFrom.put(marking.group(1), at);
            } else if (marking.find(0) && markingFrom.containsKey(marking.group(1))) {
                windows.add(new Window(markingFrom.remove(marking.group(1)), at, true));
            }
        }
        return windows;
    }
}
