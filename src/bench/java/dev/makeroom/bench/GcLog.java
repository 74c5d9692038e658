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
 * 300M->20M(512M) 3.456ms").
 */
final class GcLog {

    private static final Pattern PAUSE = Pattern.compile("Pause (\\S+).* ([0-9.]+)ms$");

    private final Path file;

    GcLog(Path file) {
        this.file = file;
    }

    String jvmArg() {
        return "-Xlog:gc:file=" + file;
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
}
