package dev.detour.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A response exactly as far as the client's socket delivered it, and whether its body ended in an
 * error (a cut, a reset, an aborted chunked body). Read streams that may break through this, not
 * {@code BodyHandlers.ofInputStream()}: the JDK's input stream checks for a failure before it takes
 * the next queued buffer, and {@code send} may throw before the body is handed over, so bytes that
 * arrived just before a cut are lost when the reading thread lags (a busy machine), and a test would
 * see a shorter stream than the client received.
 */
public record Received(int statusCode, HttpHeaders headers, byte[] bytes, Throwable failure) {

    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public boolean failed() {
        return failure != null;
    }

    /** Sends and collects every delivered body buffer until the body's end or its failure. */
    public static Received send(HttpClient http, HttpRequest request) throws InterruptedException {
        Collector collector = new Collector();
        IOException sendFailed = null;
        try {
            http.send(request, collector::start);
        } catch (IOException e) {
            if (!collector.started.isDone()) {
                throw new UncheckedIOException("no response head arrived", e);
            }
            sendFailed = e; // the body broke: the subscriber hears it after the last delivered buffer
        }
        try {
            return collector.done.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            if (sendFailed != null) {
                collector.onError(sendFailed);
                return collector.done.join();
            }
            throw new IllegalStateException("the body neither ended nor failed in 30 s", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final class Collector implements HttpResponse.BodySubscriber<Received> {
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final CompletableFuture<HttpResponse.ResponseInfo> started = new CompletableFuture<>();
        private final CompletableFuture<Received> done = new CompletableFuture<>();

        Collector start(HttpResponse.ResponseInfo info) {
            started.complete(info);
            return this;
        }

        @Override
        public CompletableFuture<Received> getBody() {
            return done;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            synchronized (received) {
                for (ByteBuffer buffer : buffers) {
                    byte[] bytes = new byte[buffer.remaining()];
                    buffer.get(bytes);
                    received.writeBytes(bytes);
                }
            }
        }

        @Override
        public void onError(Throwable failure) {
            end(failure);
        }

        @Override
        public void onComplete() {
            end(null);
        }

        private void end(Throwable failure) {
            HttpResponse.ResponseInfo info = started.join();
            synchronized (received) {
                done.complete(new Received(info.statusCode(), info.headers(), received.toByteArray(), failure));
            }
        }
    }
}
