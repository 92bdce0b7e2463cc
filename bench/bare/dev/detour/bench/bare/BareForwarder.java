package dev.detour.bench.bare;

import dev.detour.server.JettyServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
import org.eclipse.jetty.server.Server;

/**
 * The bench's calibration leg: the least a Java gateway built on Detour's own stack costs on the machine of the
 * day. Detour's own Jetty server ({@link JettyServer#newServer}: its thread pool, virtual threads on 21+, connector,
 * filters and request guard) with one servlet that reads the body, posts it to one upstream with a pooled
 * HttpClient5 classic client and copies status, content type and body back: no routing, events, limits or
 * database. Detour's throughput over this leg's tells what Detour's own work costs, apart from how fast the VM is
 * that hour (nginx's ratio moves with both).
 *
 * <p>Run with Detour's jar on the class path: {@code java -cp detour.jar:classes ...BareForwarder PORT UPSTREAM}.
 */
public final class BareForwarder {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String upstream = args[1];
        CloseableHttpClient client = HttpClients.createMinimal(PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(2048).setMaxConnPerRoute(2048).build());
        HttpServlet forward = new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                HttpPost post = new HttpPost(upstream + req.getRequestURI());
                String bearer = req.getHeader("Authorization");
                if (bearer != null) {
                    post.setHeader("Authorization", bearer);
                }
                byte[] body = req.getInputStream().readAllBytes();
                post.setEntity(new ByteArrayEntity(body, ContentType.APPLICATION_JSON));
                client.execute(post, (ClassicHttpResponse answer) -> {
                    resp.setStatus(answer.getCode());
                    Header type = answer.getFirstHeader("Content-Type");
                    if (type != null) {
                        resp.setContentType(type.getValue());
                    }
                    try (InputStream in = answer.getEntity().getContent(); OutputStream out = resp.getOutputStream()) {
                        in.transferTo(out);
                    }
                    EntityUtils.consume(answer.getEntity());
                    return null;
                });
            }
        };
        Server server = JettyServer.newServer("127.0.0.1", port, Map.of("/*", forward));
        server.start();
        System.out.println("bare forwarder ready on " + port + " → " + upstream);
        server.join();
    }
}
