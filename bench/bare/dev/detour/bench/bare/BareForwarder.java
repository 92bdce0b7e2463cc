package dev.detour.bench.bare;

import dev.detour.server.ClientGuards;
import dev.detour.server.JettyServer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * The bench's calibration leg: the least a Java gateway built on Detour's own stack costs on the machine of the
 * day. Detour's own Jetty server ({@link JettyServer#newServer}: its thread pool, virtual threads on 21+, connector,
 * request guard and body-rate wrapper) with one core handler in the relay's place (since session 38 the relay is
 * a core handler, not a servlet) that reads the body, posts it to one upstream with a pooled HttpClient5 classic
 * client and copies status, content type and body back: no routing, events, limits or database. Detour's
 * throughput over this leg's tells what Detour's own work costs, apart from how fast the VM is that hour (nginx's
 * ratio moves with both).
 *
 * <p>Run with Detour's jar on the class path: {@code java -cp detour.jar:classes ...BareForwarder PORT UPSTREAM}.
 */
public final class BareForwarder {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String upstream = args[1];
        CloseableHttpClient client = HttpClients.createMinimal(PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(2048).setMaxConnPerRoute(2048).build());
        Handler forward = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                HttpPost post = new HttpPost(upstream + request.getHttpURI().getPath());
                String bearer = request.getHeaders().get(HttpHeader.AUTHORIZATION);
                if (bearer != null) {
                    post.setHeader("Authorization", bearer);
                }
                byte[] body = Content.Source.asInputStream(request).readAllBytes();
                post.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
                client.execute(post, (ClassicHttpResponse answer) -> {
                    response.setStatus(answer.getCode());
                    Header type = answer.getFirstHeader("Content-Type");
                    if (type != null) {
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type.getValue());
                    }
                    byte[] bytes = EntityUtils.toByteArray(answer.getEntity());
                    try (Blocker.Callback written = Blocker.callback()) {
                        response.write(true, ByteBuffer.wrap(bytes), written);
                        written.block();
                    }
                    return null;
                });
                callback.succeeded();
                return true;
            }
        };
        Server server = JettyServer.newServer("127.0.0.1", port, Map.of(), forward, null, Duration.ofSeconds(30),
                ClientGuards.timeoutsOnly(Duration.ofSeconds(30), 0));
        server.start();
        System.out.println("bare forwarder ready on " + port + " → " + upstream);
        server.join();
    }
}
