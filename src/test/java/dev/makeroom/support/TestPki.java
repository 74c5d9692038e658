package dev.makeroom.support;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;

/**
 * Certificates for tests of TLS between makeroom and the API server: a CA, and certificates it issues
 * to a client (a common name) or a server (localhost), written as the PEM files Kubernetes keeps.
 */
public final class TestPki {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A key pair with its certificate, and the CA certificate that signed it (itself for a CA). */
    public record Issued(KeyPair keys, X509Certificate certificate, X509Certificate issuer) {

        /** A new certificate signed by this one (a CA), for {@code commonName}; a server's names localhost. */
        public Issued issue(String commonName, boolean server) {
            return TestPki.issue(this, commonName, false, server);
        }

        public String certificatePem() {
            try {
                return pem("CERTIFICATE", certificate.getEncoded());
            } catch (java.security.cert.CertificateEncodingException e) {
                throw new IllegalStateException(e);
            }
        }

        public String keyPem() {
            return pem("PRIVATE KEY", keys.getPrivate().getEncoded());
        }

        /** Writes {@code <name>.crt} and {@code <name>.key} into {@code dir}. */
        public void write(Path dir, String name) throws IOException {
            Files.writeString(dir.resolve(name + ".crt"), certificatePem());
            Files.writeString(dir.resolve(name + ".key"), keyPem());
        }

        /** A TLS server context that presents this certificate. */
        public SSLContext server() throws Exception {
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            keyStore.load(null, null);
            keyStore.setKeyEntry("server", keys.getPrivate(), new char[0], new X509Certificate[]{certificate});
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keyStore, new char[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, RANDOM);
            return context;
        }

        /** A TLS client that presents this certificate (or none, when null) and trusts {@code trusted}. */
        public static SSLContext client(Issued presented, X509Certificate trusted) throws Exception {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", trusted);
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            KeyManagerFactory keyManagers = null;
            if (presented != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", presented.keys().getPrivate(), new char[0],
                        new X509Certificate[]{presented.certificate()});
                keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyManagers.init(keys, new char[0]);
            }
            context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), RANDOM);
            return context;
        }
    }

    private TestPki() {
    }

    /** A self-signed CA. */
    public static Issued authority(String commonName) {
        return issue(null, commonName, true, false);
    }

    private static Issued issue(Issued by, String commonName, boolean ca, boolean server) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, RANDOM);
            KeyPair keys = generator.generateKeyPair();
            X500Name subject = new X500Name("CN=" + commonName);
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    by == null ? subject : new X500Name(by.certificate().getSubjectX500Principal().getName()),
                    BigInteger.valueOf(RANDOM.nextLong() & Long.MAX_VALUE), Date.from(now.minus(Duration.ofHours(1))),
                    Date.from(now.plus(Duration.ofDays(1))), subject, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
            if (server) {
                builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[]{
                        new GeneralName(GeneralName.dNSName, "localhost"),
                        new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
            }
            KeyPair signer = by == null ? keys : by.keys();
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(builder.build(
                    new JcaContentSignerBuilder("SHA256withRSA").build(signer.getPrivate())));
            return new Issued(keys, certificate, by == null ? certificate : by.certificate());
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a test certificate", e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
