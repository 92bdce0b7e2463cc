package dev.detour.testkit;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body exactly as far as the client's socket delivered it, and whether it ended in an
 * error (a cut, a reset, an aborted chunked body). Read streams that may break through this, not
 * {@code BodyHandlers.ofInputStream()}: the JDK's input stream checks for a failure before it takes
 * the next queued buffer, so bytes that arrived just before the cut are dropped when the reading
 * thread lags (a busy machine), and a test would see a shorter stream than the client received.
 */
public record ReceivedBody(byte[] bytes, Throwable failure) {

    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    public boolean failed() {
        return failure != null;
    }

    /** Collects every delivered buffer; completes on the body's end or on its failure, never throws. */
    public static HttpResponse.BodyHandler<ReceivedBody> handler() {
        return info -> new Collector();
    }

    private static final class Collector implements HttpResponse.BodySubscriber<ReceivedBody> {
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final CompletableFuture<ReceivedBody> done = new CompletableFuture<>();

        @Override
        public CompletionStage<ReceivedBody> getBody() {
            return done;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                byte[] bytes = new byte[buffer.remaining()];
                buffer.get(bytes);
                received.writeBytes(bytes);
            }
        }

        @Override
        public void onError(Throwable failure) {
            done.complete(new ReceivedBody(received.toByteArray(), failure));
        }

        @Override
        public void onComplete() {
            done.complete(new ReceivedBody(received.toByteArray(), null));
        }
    }
}
