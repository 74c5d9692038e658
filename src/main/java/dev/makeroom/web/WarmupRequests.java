package dev.makeroom.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Component;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Tells makeroom's own warm-up calls from the scheduler's: they carry a secret this process made at
 * start and never shows, so only it can mark a request as one not to count (no metrics, no decision
 * log, no log line).
 */
@Component
public final class WarmupRequests {

    static final String HEADER = "X-Makeroom-Warmup";

    private final String token;

    WarmupRequests() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        token = HexFormat.of().formatHex(bytes);
    }

    String token() {
        return token;
    }

    /** Whether the request is makeroom warming its own HTTP path. */
    public boolean isWarmup(HttpServletRequest request) {
        return token.equals(request.getHeader(HEADER));
    }
}
