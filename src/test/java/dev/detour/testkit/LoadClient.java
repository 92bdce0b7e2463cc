package dev.detour.testkit;

import java.io.IOException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * A blocking HTTP client for tests that send thousands of requests and account for every answer: Apache HttpClient 5
 * classic, whose pooled connections are each leased to one request at a time. JDK 17's HttpClient can hand a reused
 * connection's answer to its idle-connection watcher (JDK-8338569, fixed in later JDKs): the server served the
 * request, the client saw "HTTP/1.1 header parser received no bytes" — a few times in 100,000 requests, and a test
 * counting answers against stored events cannot tell that from a request Detour lost.
 */
public final class LoadClient implements AutoCloseable {
    private final CloseableHttpClient http;

    /** An answer: status, lower-cased header names, body. */
    public record Answer(int status, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Up to {@code connections} connections, kept alive between requests; a request is never retried. */
    public LoadClient(int connections) {
        http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(connections).setMaxConnPerRoute(connections)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.ofSeconds(5))
                                .setSocketTimeout(Timeout.ofSeconds(30)) // a hang guard, never a timing assertion
                                .build())
                        .build())
                .disableAutomaticRetries() // a POST sent twice would be two requests to count
                .build();
    }

    /** POSTs {@code json} with {@code headers} (a Content-Type of application/json is added). */
    public Answer post(String url, Map<String, String> headers, String json) throws IOException {
        HttpPost post = new HttpPost(url);
        headers.forEach(post::addHeader);
        post.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
        return http.execute(post, response -> {
            Map<String, String> names = new TreeMap<>();
            for (Header h : response.getHeaders()) {
                names.put(h.getName().toLowerCase(Locale.ROOT), h.getValue());
            }
            String body = response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity());
            return new Answer(response.getCode(), names, body);
        });
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
