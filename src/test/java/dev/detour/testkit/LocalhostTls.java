package dev.detour.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS for upstreams on loopback: a certificate for {@code localhost} (EC secp256r1, valid two days) made once per JVM by
 * the JDK's keytool, a server context presenting it and a client context trusting only it. Real TLS end to end; the
 * JDK's own trust store does not know the certificate, so a client on its default context refuses it.
 */
public final class LocalhostTls {
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static LocalhostTls made;

    private final Path store;
    private final SSLContext server;
    private final SSLContext client;

    private LocalhostTls(Path store, SSLContext server, SSLContext client) {
        this.store = store;
        this.server = server;
        this.client = client;
    }

    /** The JVM's certificate, made at the first call. */
    public static synchronized LocalhostTls get() {
        if (made == null) {
            try {
                made = make();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return made;
    }

    /** What a TLS server on loopback presents. */
    public SSLContext server() {
        return server;
    }

    /** A client context trusting the certificate (and nothing else). */
    public SSLContext trustingClient() {
        return client;
    }

    /** The PKCS12 key store (password {@code changeit}): for a server in another process. */
    public Path keyStore() {
        return store;
    }

    public static String password() {
        return new String(PASSWORD);
    }

    private static LocalhostTls make() throws IOException, GeneralSecurityException, InterruptedException {
        Path dir = Files.createTempDirectory("detour-tls");
        dir.toFile().deleteOnExit();
        Path store = dir.resolve("localhost.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "upstream", "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-validity", "2",
                "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", password(), "-keypass", password()).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        store.toFile().deleteOnExit();
        KeyStore keys = load(store);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);
        return new LocalhostTls(store, serverContext(store), client);
    }

    /** A server context presenting the key store's certificate (also for a server in another process). */
    static SSLContext serverContext(Path store) throws IOException, GeneralSecurityException {
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(load(store), PASSWORD);
        SSLContext server = SSLContext.getInstance("TLS");
        server.init(keyManagers.getKeyManagers(), null, null);
        return server;
    }

    private static KeyStore load(Path store) throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD);
        }
        return keys;
    }
}
