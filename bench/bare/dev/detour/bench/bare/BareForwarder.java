package dev.detour.bench.bare;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The bench's calibration leg: the least a Java gateway built on Detour's own stack can cost on the machine of
 * the day. Jetty 12 (the same thread pool and connector settings as Detour) and a pooled HttpClient5 classic
 * client, a servlet that reads the body, posts it to one upstream with the bearer header and copies status,
 * content type and body back: no routing, no events, no database. Detour's throughput over this leg's tells what
 * Detour's own work costs, apart from how fast the VM is that hour (nginx's ratio moves with both).
 *
 * <p>Run with Detour's jar on the class path: {@code java -cp detour.jar:classes ...BareForwarder PORT UPSTREAM}.
 */
public final class BareForwarder {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String upstream = args[1];
        CloseableHttpClient client = HttpClients.createMinimal(PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(2048).setMaxConnPerRoute(2048).build());
        QueuedThreadPool threads = new QueuedThreadPool(2048, 16);
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(new HttpServlet() {
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
        }), "/*");
        server.setHandler(context);
        server.start();
        System.out.println("bare forwarder ready on " + port + " → " + upstream);
        server.join();
    }
}
