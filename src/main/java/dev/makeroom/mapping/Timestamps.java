package dev.makeroom.mapping;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

import static dev.makeroom.mapping.Quantities.digits;

/**
 * Reads the API's timestamps. The API server writes them as {@code 2026-11-20T08:00:00Z}; a pod
 * carries two or three, and {@code Instant.parse} allocated about a kilobyte for each (a first
 * sync of 150,000 pods: 440 MB, the largest share of makeroom's own). That one form is read by
 * hand; anything else (fractions, offsets, leap seconds, nonsense) goes to {@code Instant.parse},
 * so the answer is always the one it gives.
 */
final class Timestamps {

    private static final int PLAIN_LENGTH = "2026-11-20T08:00:00Z".length();

    private Timestamps() {
    }

    /** The instant, or null when there is none or it cannot be read. */
    static Instant parse(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        Instant plain = plain(timestamp);
        if (plain != null) {
            return plain;
        }
        try {
            return Instant.parse(timestamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** {@code yyyy-MM-ddTHH:mm:ssZ} with every field in its ordinary range, else null. */
    private static Instant plain(String s) {
        if (s.length() != PLAIN_LENGTH || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T'
                || s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(19) != 'Z') {
            return null;
        }
        int year = (int) digits(s, 0, 4);
        int month = (int) digits(s, 5, 7);
        int day = (int) digits(s, 8, 10);
        int hour = (int) digits(s, 11, 13);
        int minute = (int) digits(s, 14, 16);
        int second = (int) digits(s, 17, 19);
        if (year < 0 || month < 0 || day < 0 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59) {
            return null;
        }
        try {
            long days = LocalDate.of(year, month, day).toEpochDay();
            return Instant.ofEpochSecond(days * 86_400 + hour * 3_600L + minute * 60L + second);
        } catch (DateTimeException e) {
            return null; // e.g. February 30th: Instant.parse decides
        }
    }
}
