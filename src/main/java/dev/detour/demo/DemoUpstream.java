package dev.detour.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's fake relays: a real HTTP server on a loopback ephemeral port (JDK HttpServer) serving
 * OpenAI-compatible {@code POST /{behaviour}/v1/chat/completions}, buffered or SSE, answering as
 * the path's {@link DemoBehaviour}. Upstream keys must look like {@code sk-demo-…}; nothing real.
 */
public final class DemoUpstream implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT_PATH = "/v1/chat/completions";
    private static final int MAX_BODY_BYTES = 1 << 20;
    private final HttpServer server;
    private final ExecutorService threads;
    private final AtomicLong sequence = new AtomicLong();

    private DemoUpstream(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    public static DemoUpstream start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
            ExecutorService threads = Executors.newFixedThreadPool(16, r -> {
                Thread t = new Thread(r, "detour-demo-upstream");
                t.setDaemon(true);
                return t;
            });
            DemoUpstream upstream = new DemoUpstream(server, threads);
            server.createContext("/", upstream::handle);
            server.setExecutor(threads);
            server.start();
            return upstream;
        } catch (IOException e) {
            throw new UncheckedIOException("the demo upstream could not listen on loopback", e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The base URL an account uses to reach the relay that behaves as {@code behaviour}. */
    public String url(DemoBehaviour behaviour) {
        return "http://127.0.0.1:" + port() + "/" + behaviour.path();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            send(exchange, replyTo(exchange));
        } catch (IOException e) {
            // the caller went away mid-answer; nothing to tell anyone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private DemoReply replyTo(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        int slash = path.indexOf('/', 1);
        Optional<DemoBehaviour> behaviour = slash < 0 ? Optional.empty()
                : DemoBehaviour.fromPath(path.substring(1, slash));
        if (behaviour.isEmpty() || !path.substring(slash).equals(CHAT_PATH)
                || !"POST".equals(exchange.getRequestMethod())) {
            return DemoReplies.notFound(exchange.getRequestMethod() + " " + path);
        }
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !auth.startsWith("Bearer sk-demo-")) {
            return DemoReplies.unauthorized();
        }
        JsonNode body = readJson(exchange.getRequestBody());
        String model = body == null ? "" : body.path("model").asText("");
        if (model.isBlank()) {
            return DemoReplies.badRequest("a JSON body with a model is required");
        }
        return DemoReplies.answer(behaviour.get(), model, body.path("stream").asBoolean(false),
                sequence.incrementAndGet());
    }

    private static JsonNode readJson(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES);
        try {
            JsonNode node = JSON.readTree(bytes);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static void send(HttpExchange exchange, DemoReply reply) throws IOException, InterruptedException {
        if (!reply.delay().isZero()) {
            Thread.sleep(reply.delay().toMillis()); // the slow relay's simulated latency
        }
        reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.getResponseHeaders().set("Content-Type", reply.eventStream() ? "text/event-stream" : "application/json");
        if (!reply.eventStream()) {
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(reply.status(), bytes.length);
            exchange.getResponseBody().write(bytes);
            return;
        }
        exchange.sendResponseHeaders(reply.status(), 0); // chunked: one flush per SSE frame
        OutputStream out = exchange.getResponseBody();
        for (String frame : reply.parts()) {
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
