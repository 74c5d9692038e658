package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.ByteArrayInputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Tells a request the API server's aggregation layer sent on a user's behalf from any other, as an
 * extension API server must: the API server proxies {@code /apis/debug.makeroom.dev/...} over TLS with
 * its front-proxy client certificate and names the user it authenticated in request headers. Those
 * headers are believed only when the certificate chains to the request-header CA and its common name
 * is an allowed one; the CA, the names and the header names are the API server's own, published in
 * the ConfigMap {@code kube-system/extension-apiserver-authentication} (read with the standard Role
 * {@code extension-apiserver-authentication-reader}).
 *
 * <p>The ConfigMap is read on first use and again {@link #REREAD_AFTER} later; a certificate that does
 * not verify makes it read again at most every {@link #RETRY_AFTER}, so a rotated CA is picked up
 * without letting a stranger make makeroom ask the API server on every request.
 */
public final class FrontProxy implements AutoCloseable {

    public static final String CONFIG_MAP_NAMESPACE = "kube-system";
    public static final String CONFIG_MAP_NAME = "extension-apiserver-authentication";
    static final Duration REREAD_AFTER = Duration.ofMinutes(5);
    static final Duration RETRY_AFTER = Duration.ofSeconds(30);

    /**
     * What a request is: a user the API server asserts, the API server itself naming no user (its
     * availability and discovery checks), or refused with an HTTP status and why.
     */
    public sealed interface Outcome {
        record Asserted(DebugCaller.Asserted caller) implements Outcome {
        }

        record Unnamed(String userHeaders) implements Outcome {
        }

        record Refused(int status, String reason) implements Outcome {
        }
    }

    /** The API server's request-header settings: whom to believe and where it puts the user. */
    record Trust(List<X509Certificate> authorities, Set<String> allowedNames, List<String> userHeaders,
                 List<String> groupHeaders, List<String> extraHeaderPrefixes) {
    }

    private final Supplier<Trust> reader;
    private final AutoCloseable client;
    private final Clock clock;
    private Trust trust;
    private Instant readAt;
    private String unreadable;

    FrontProxy(Supplier<Trust> reader, AutoCloseable client, Clock clock) {
        this.reader = reader;
        this.client = client;
        this.clock = clock;
    }

    /** Reads the API server's settings through {@code client} (which must not retry for long). */
    public static FrontProxy of(KubernetesClient client, Clock clock) {
        KubernetesClient unretried = UnretriedClient.of(client.getConfiguration());
        return new FrontProxy(() -> trustFrom(unretried.configMaps().inNamespace(CONFIG_MAP_NAMESPACE)
                .withName(CONFIG_MAP_NAME).get()), unretried, clock);
    }

    /** Closes its client (the listener's owner does, when the context ends). */
    @Override
    public void close() throws Exception {
        client.close();
    }

    /**
     * Who the request with this client certificate {@code chain} (null without one) and these
     * {@code headers} (every value of each header, by name in any case) is on behalf of.
     */
    public Outcome authenticate(X509Certificate[] chain, Map<String, List<String>> sent) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.putAll(sent);
        if (chain == null || chain.length == 0) {
            return new Outcome.Refused(401, "this port answers the API server's aggregation layer only:"
                    + " no client certificate was presented (ask through kubectl get --raw /apis/debug.makeroom.dev/v1/...)");
        }
        Trust current = trust(false);
        if (current == null) {
            return new Outcome.Refused(503, unreadable);
        }
        String problem = problem(current, chain);
        if (problem != null) {
            Trust reread = trust(true);
            if (reread == null || (problem = problem(reread, chain)) != null) {
                return new Outcome.Refused(401, problem == null ? unreadable : problem);
            }
            current = reread;
        }
        String user = current.userHeaders().stream().map(name -> headers.getOrDefault(name, List.of()))
                .filter(values -> !values.isEmpty() && !values.get(0).isBlank()).map(values -> values.get(0))
                .findFirst().orElse(null);
        if (user == null) {
            return new Outcome.Unnamed(String.join(", ", current.userHeaders()));
        }
        List<String> groups = new ArrayList<>();
        current.groupHeaders().forEach(header -> groups.addAll(headers.getOrDefault(header, List.of())));
        return new Outcome.Asserted(new DebugCaller.Asserted(user, groups, extra(current, headers)));
    }

    /** Why {@code chain} is not the front proxy's, or null when it is. */
    private static String problem(Trust trust, X509Certificate[] chain) {
        try {
            Set<TrustAnchor> anchors = trust.authorities().stream().map(ca -> new TrustAnchor(ca, null))
                    .collect(Collectors.toSet());
            PKIXParameters parameters = new PKIXParameters(anchors);
            parameters.setRevocationEnabled(false);
            CertPathValidator.getInstance("PKIX").validate(
                    CertificateFactory.getInstance("X.509").generateCertPath(Arrays.asList(chain)), parameters);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return "the client certificate is not the API server's front proxy's: " + e.getMessage();
        }
        String name = commonName(chain[0]);
        if (!trust.allowedNames().isEmpty() && !trust.allowedNames().contains(name)) {
            return "the client certificate's common name " + name + " is not one the API server allows ("
                    + String.join(", ", trust.allowedNames()) + ")";
        }
        return null;
    }

    private synchronized Trust trust(boolean afterRefusal) {
        Instant now = clock.instant();
        if (readAt == null || Duration.between(readAt, now)
                .compareTo(trust == null || afterRefusal ? RETRY_AFTER : REREAD_AFTER) >= 0) {
            readAt = now;
            try {
                trust = reader.get();
                unreadable = null;
            } catch (KubernetesClientException | IllegalArgumentException e) {
                // keep what was read before: a passing API hiccup must not lock operators out
                unreadable = "makeroom cannot read " + CONFIG_MAP_NAMESPACE + "/" + CONFIG_MAP_NAME + ": " + why(e);
            }
        }
        return trust;
    }

    /** An API answer's status, or the innermost cause of a call that got none (refused, unknown host). */
    private static String why(RuntimeException e) {
        if (e instanceof KubernetesClientException k && k.getCode() > 0) {
            return "HTTP " + k.getCode();
        }
        if (!(e instanceof KubernetesClientException)) {
            return e.getMessage();
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    /** The settings in the ConfigMap's data; the keys are the API server's flag names. */
    static Trust trustFrom(ConfigMap map) {
        if (map == null || map.getData() == null || map.getData().get("requestheader-client-ca-file") == null) {
            throw new IllegalArgumentException("it holds no requestheader-client-ca-file"
                    + " (is the API server's aggregation layer configured?)");
        }
        Map<String, String> data = map.getData();
        return new Trust(certificates(data.get("requestheader-client-ca-file")),
                Set.copyOf(list(data.get("requestheader-allowed-names"))),
                list(data.get("requestheader-username-headers")), list(data.get("requestheader-group-headers")),
                list(data.get("requestheader-extra-headers-prefix")));
    }

    static List<X509Certificate> certificates(String pem) {
        try {
            return CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII))).stream()
                    .map(X509Certificate.class::cast).toList();
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("its requestheader-client-ca-file is not PEM certificates: " + e.getMessage());
        }
    }

    /** A value the API server writes as a JSON array of strings ({@code ["X-Remote-User"]}); absent is empty. */
    static List<String> list(String json) {
        if (json == null || json.isBlank() || json.trim().equals("[]") || json.trim().equals("null")) {
            return List.of();
        }
        String inner = json.trim();
        if (!inner.startsWith("[") || !inner.endsWith("]")) {
            throw new IllegalArgumentException("not a JSON list of strings: " + json);
        }
        List<String> items = new ArrayList<>();
        for (String item : inner.substring(1, inner.length() - 1).split(",")) {
            String quoted = item.trim();
            if (quoted.length() < 2 || !quoted.startsWith("\"") || !quoted.endsWith("\"")) {
                throw new IllegalArgumentException("not a JSON list of strings: " + json);
            }
            items.add(quoted.substring(1, quoted.length() - 1));
        }
        return List.copyOf(items);
    }

    /** {@code X-Remote-Extra-Scopes: a} → {@code scopes: [a]}; the key is percent-decoded and lower-cased, as the API server sends it. */
    private static Map<String, List<String>> extra(Trust trust, Map<String, List<String>> headers) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        headers.forEach((header, values) -> {
            for (String prefix : trust.extraHeaderPrefixes()) {
                if (header.regionMatches(true, 0, prefix, 0, prefix.length()) && header.length() > prefix.length()) {
                    String key = URLDecoder.decode(header.substring(prefix.length()), StandardCharsets.UTF_8)
                            .toLowerCase(Locale.ROOT);
                    extra.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values);
                }
            }
        });
        return extra;
    }

    private static String commonName(X509Certificate certificate) {
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdn.getValue());
                }
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return "";
    }
}
