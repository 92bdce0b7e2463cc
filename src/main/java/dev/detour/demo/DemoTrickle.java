package dev.detour.demo;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's background traffic: one request per {@link #tick()} through Detour's own proxy over
 * loopback HTTP with the demo key, walking a fixed script of models (buffered and streaming), so the
 * failure engine meets the demo relays exactly as it meets real clients' traffic.
 */
public final class DemoTrickle implements AutoCloseable {
    /** One scripted request. */
    public record Step(String model, boolean stream) {
    }

    /** Every model once buffered and once streaming; each demo failure is met within the first three steps. */
    public static final List<Step> SCRIPT = List.of(new Step("gpt-4o-mini", false), new Step("gpt-4o", true),
            new Step("deepseek-chat", false), new Step("gpt-4o-mini", true), new Step("gpt-4o", false),
            new Step("deepseek-chat", true));
    private static final Logger log = LoggerFactory.getLogger(DemoTrickle.class);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI endpoint;
    private final String key;
    private final AtomicLong sent = new AtomicLong();
    private ScheduledExecutorService loop;

    /** {@code proxyBase} is Detour's own origin, e.g. {@code http://127.0.0.1:8080}. */
    public DemoTrickle(String proxyBase, String key) {
        this.endpoint = URI.create(proxyBase + "/v1/chat/completions");
        this.key = key;
    }

    /** Sends the script's next request and answers the status the client saw (after any failover). */
    public int tick() {
        long n = sent.getAndIncrement();
        Step step = SCRIPT.get((int) (n % SCRIPT.size()));
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .header("User-Agent", "detour-demo-trickle")
                .POST(HttpRequest.BodyPublishers.ofString(body(step, n).toString())).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (IOException e) {
            throw new UncheckedIOException("demo request " + n + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("demo request " + n + " interrupted", e);
        }
    }

    /** Runs {@link #tick()} on a daemon thread every {@code period} (the first after one period). */
    public synchronized void start(Duration period) {
        if (loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detour-demo-trickle");
            t.setDaemon(true);
            return t;
        });
        loop.scheduleWithFixedDelay(this::tickQuietly, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the loop (a request in flight is abandoned); {@link #tick()} still works afterwards. */
    public synchronized void stop() {
        if (loop != null) {
            loop.shutdownNow();
            loop = null;
        }
    }

    @Override
    public void close() {
        stop();
    }

    private void tickQuietly() {
        try {
            tick();
        } catch (RuntimeException e) {
            log.debug("demo trickle: {}", e.toString()); // e.g. during shutdown; the next tick tries again
        }
    }

    private static ObjectNode body(Step step, long n) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("model", step.model());
        body.putArray("messages").addObject().put("role", "user").put("content", "Demo request " + n + ": say hello.");
        body.put("stream", step.stream());
        return body;
    }
}
