package dev.makeroom.debug;

import dev.makeroom.cluster.AggregatedApiListener;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

import javax.net.ssl.X509TrustManager;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;

/**
 * The management server's second connector, when makeroom.debug.aggregation.port is set: HTTPS with the
 * configured certificate, asking every client for its certificate without judging it at the
 * handshake ({@link AnyClientCertificate}), so that {@link AggregatedApiFilter} can check it against
 * the front proxy's CA, which the API server publishes and may rotate, and answer a stranger with a
 * {@code Status} rather than a failed handshake.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class AggregatedApiPort {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> aggregationConnector(AggregatedApiListener listener) {
        return factory -> {
            if (!listener.on()) {
                return;
            }
            Connector connector = new Connector(Http11NioProtocol.class.getName());
            connector.setPort(listener.port());
            connector.setScheme("https");
            connector.setSecure(true);
            Http11NioProtocol protocol = (Http11NioProtocol) connector.getProtocolHandler();
            protocol.setSSLEnabled(true);
            SSLHostConfig tls = new SSLHostConfig();
            tls.setCertificateVerification("optional");
            tls.setTrustManagerClassName(AnyClientCertificate.class.getName());
            SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(tls, SSLHostConfigCertificate.Type.UNDEFINED);
            certificate.setCertificateFile(listener.certificate().toAbsolutePath().toString());
            certificate.setCertificateKeyFile(listener.key().toAbsolutePath().toString());
            tls.addCertificate(certificate);
            protocol.addSslHostConfig(tls);
            factory.addAdditionalConnectors(connector);
        };
    }

    /**
     * First on the management server (the bad-query-string filter follows it there): a stranger is
     * refused before anything reads the request, and the 400 of a bad query string becomes a Status.
     */
    @Bean
    FilterRegistrationBean<AggregatedApiFilter> aggregatedApi(AggregatedApiListener listener) {
        FilterRegistrationBean<AggregatedApiFilter> registration = new FilterRegistrationBean<>(
                new AggregatedApiFilter(listener));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setEnabled(listener.on());
        return registration;
    }

    /**
     * Takes any client certificate at the handshake and names no acceptable CA. Without a CA list a
     * client sends its certificate whoever signed it (Go's TLS client, the API server's, sends none
     * when the list does not hold its issuer, and Tomcat would otherwise list the JVM's public CAs).
     */
    public static final class AnyClientCertificate implements X509TrustManager {

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // judged per request by AggregatedApiFilter, against the CA the API server publishes now
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a server-side trust manager judges no servers");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
