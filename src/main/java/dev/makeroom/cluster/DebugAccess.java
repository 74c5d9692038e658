package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who may use the debug API, as Kubernetes components decide it (kube-rbac-proxy, controller-runtime's
 * metrics filter): the caller's bearer token is checked with a TokenReview, then the user it names is
 * authorized with a SubjectAccessReview on the non-resource URL asked ({@code /debug/...}, verb
 * {@code get} for GET, {@code create} for POST). A user the API server's aggregation layer asserts
 * ({@link DebugCaller.Asserted}) was authenticated there and goes straight to the second review, as an
 * extension API server authorizes its callers. Both answers are kept {@link #KEPT_FOR} (by a hash of
 * the token, never the token itself), so a busy operator costs the API server two reviews a
 * half-minute. When the API does not answer, access is refused (503), never opened.
 */
public interface DebugAccess {

    /** How long a review's answer is kept. */
    Duration KEPT_FOR = Duration.ofSeconds(30);

    /** Anyone may (local runs, a snapshot file). */
    DebugAccess OPEN = (caller, path, method) -> Verdict.ALLOWED;

    /** What the debug API answers {@code caller}'s request for {@code path} by {@code method}. */
    Verdict check(DebugCaller caller, String path, String method);

    /** Allowed ({@code status} 0), or the HTTP status and why not. */
    record Verdict(int status, String reason) {
        public static final Verdict ALLOWED = new Verdict(0, null);

        public boolean allowed() {
            return status == 0;
        }
    }

    /** Reviews through the API server of {@code client}. */
    static DebugAccess reviewedBy(KubernetesClient client, Clock clock) {
        return new Reviewed(client, clock);
    }

    /** The reviews and their kept answers; thread-safe. */
    final class Reviewed implements DebugAccess, AutoCloseable {

        private static final int KEPT = 1024; // answers kept at most: enough for every operator, bounded against floods

        private record Kept<T>(T value, Instant until) {
        }

        private final KubernetesClient client;
        private final Clock clock;
        private final Map<String, Kept<UserInfo>> users = bounded();
        private final Map<String, Kept<Boolean>> decisions = bounded();

        /** On a client of its own that does not retry: an API that fails answers 503 at once, not after fabric8's backoff. */
        private Reviewed(KubernetesClient client, Clock clock) {
            this.client = UnretriedClient.of(client.getConfiguration());
            this.clock = clock;
        }

        /** Closes its client (Spring calls it when the context ends). */
        @Override
        public void close() {
            client.close();
        }

        private static <T> Map<String, Kept<T>> bounded() {
            return new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Kept<T>> eldest) {
                    return size() > KEPT;
                }
            };
        }

        @Override
        public Verdict check(DebugCaller caller, String path, String method) {
            String verb = "POST".equals(method) ? "create" : "get";
            try {
                UserInfo user;
                if (caller instanceof DebugCaller.Asserted asserted) {
                    user = new UserInfo(asserted.extra(), asserted.groups(), null, asserted.user());
                } else {
                    String authorization = ((DebugCaller.Bearer) caller).authorization();
                    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                            || authorization.substring(7).isBlank()) {
                        return new Verdict(401, "a bearer token is needed (kubectl create token <service account>)");
                    }
                    user = user(authorization.substring(7).trim());
                    if (user == null) {
                        return new Verdict(401, "the API server does not accept this token");
                    }
                }
                if (!allowed(user, path, verb)) {
                    return new Verdict(403, user.getUsername() + " may not " + verb + " " + path
                            + " (grant it the ClusterRole makeroom-debug)");
                }
                return Verdict.ALLOWED;
            } catch (KubernetesClientException e) {
                return new Verdict(503, "the API server did not review the request ("
                        + (e.getCode() > 0 ? "HTTP " + e.getCode() : "unreachable") + "); try again");
            }
        }

        private UserInfo user(String token) {
            String key = hash(token);
            Kept<UserInfo> kept = fresh(users, key);
            if (kept != null) {
                return kept.value();
            }
            TokenReview review = client.resource(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec()
                    .build()).create();
            UserInfo user = review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAuthenticated())
                    ? review.getStatus().getUser() : null;
            keep(users, key, user);
            return user;
        }

        private boolean allowed(UserInfo user, String path, String verb) {
            String key = user.getUsername() + "\n" + user.getUid() + "\n" + user.getGroups() + "\n" + verb + " " + path;
            Kept<Boolean> kept = fresh(decisions, key);
            if (kept != null) {
                return kept.value();
            }
            SubjectAccessReview review = client.resource(new SubjectAccessReviewBuilder().withNewSpec()
                    .withUser(user.getUsername()).withUid(user.getUid()).withGroups(user.getGroups())
                    .withExtra(user.getExtra() == null ? Map.of() : user.getExtra())
                    .withNewNonResourceAttributes().withPath(path).withVerb(verb).endNonResourceAttributes()
                    .endSpec().build()).create();
            boolean allowed = review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
            keep(decisions, key, allowed);
            return allowed;
        }

        private synchronized <T> Kept<T> fresh(Map<String, Kept<T>> answers, String key) {
            Kept<T> kept = answers.get(key);
            return kept != null && kept.until().isAfter(clock.instant()) ? kept : null;
        }

        private synchronized <T> void keep(Map<String, Kept<T>> answers, String key, T value) {
            answers.put(key, new Kept<>(value, clock.instant().plus(KEPT_FOR)));
        }

        private static String hash(String token) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(token.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is part of every JVM", e);
            }
        }
    }
}
