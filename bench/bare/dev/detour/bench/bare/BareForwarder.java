package dev.detour.bench.bare;

import dev.detour.server.ClientGuards;
import dev.detour.server.JettyServer;
import dev.detour.adapter.upstream.Http1UpstreamClient;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * a core handler, not a servlet) that reads the body, posts it to one upstream with Detour's own pooled upstream
 * client ({@link Http1UpstreamClient}, since session 39; HttpClient5 before) and copies status, content type and body
 * back: no routing, events, limits or database. Detour's
 * throughput over this leg's tells what Detour's own work costs, apart from how fast the VM is that hour (nginx's
 * ratio moves with both).
 *
 * <p>Run with Detour's jar on the class path: {@code java -cp detour.jar:classes ...BareForwarder PORT UPSTREAM}.
 */
public final class BareForwarder {
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String upstream = args[1];
        Http1UpstreamClient client = Http1UpstreamClient.withDefaults();
        Handler forward = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                List<Header> headers = new ArrayList<>(2);
                headers.add(new Header("Content-Type", "application/json"));
                String bearer = request.getHeaders().get(HttpHeader.AUTHORIZATION);
                if (bearer != null) {
                    headers.add(new Header("Authorization", bearer));
                }
                byte[] body = Content.Source.asInputStream(request).readAllBytes();
                try (UpstreamResponse answer = client.send(new UpstreamRequest("POST",
                        upstream + request.getHttpURI().getPath(), headers, body))) {
                    response.setStatus(answer.status());
                    String type = answer.header("Content-Type");
                    if (type != null) {
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
                    }
                    byte[] bytes = answer.body().readAllBytes();
                    try (Blocker.Callback written = Blocker.callback()) {
                        response.write(true, ByteBuffer.wrap(bytes), written);
                        written.block();
                    }
                }
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
