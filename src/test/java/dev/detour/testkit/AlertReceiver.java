package dev.detour.testkit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

/** A real HTTP receiver on loopback for alert webhooks: records every POST, answers scripted statuses (else 200). */
public final class AlertReceiver implements AutoCloseable {
    /** One request as it arrived. */
    public record Received(String path, String query, String body) {
    }

    private final HttpServer server;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final Queue<Integer> statuses = new ConcurrentLinkedQueue<>();

    private AlertReceiver(HttpServer server) {
        this.server = server;
    }

    public static AlertReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            AlertReceiver receiver = new AlertReceiver(server);
            server.createContext("/", exchange -> {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                receiver.received.add(new Received(exchange.getRequestURI().getPath(),
                        exchange.getRequestURI().getRawQuery(), body));
                Integer scripted = receiver.statuses.poll();
                int status = scripted == null ? 200 : scripted;
                byte[] answer = (status == 200 ? (exchange.getRequestURI().getPath().endsWith("/sendMessage")
                        ? "{\"ok\":true}" : "{\"errcode\":0,\"code\":0}") : "{\"error\":\"down\"}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, answer.length);
                exchange.getResponseBody().write(answer);
                exchange.close();
            });
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The usual W-1 IT set-up: the gateway's alert thread stopped (the test ticks it with its clock), a
     * receiver started, and a webhook channel {@code name} to its {@code path}; {@code fields}: more
     * channel members as JSON ({@code ,"suppress_seconds":600}), or "".
     */
    public static AlertReceiver webhookFor(Gateway gw, String name, String path, String fields) {
        gw.app.alerts().stopLoop();
        AlertReceiver receiver = start();
        gw.admin("POST", "/alerts/channels", "{\"name\":\"" + name + "\",\"kind\":\"webhook\",\"url\":\""
                + receiver.url(path) + "\"" + fields + "}");
        return receiver;
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next answers, in order (then 200 again). */
    public void answer(Integer... next) {
        statuses.addAll(List.of(next));
    }

    public List<Received> received() {
        return List.copyOf(received);
    }

    public List<Received> at(String path) {
        return received.stream().filter(r -> r.path().equals(path)).toList();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
