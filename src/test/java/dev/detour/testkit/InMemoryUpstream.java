package dev.detour.testkit;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The upstream port in memory, for tests of the attempt loop without sockets: each base URL answers
 * from its own script, one step per request (the last step repeats). Every request is recorded.
 */
public final class InMemoryUpstream implements UpstreamClient {
    /** One scripted answer: an HTTP answer, or a transport failure before any answer. */
    public record Step(int status, String contentType, String body, TransportErrorType transportError) {
        public static Step answer(int status, String body) {
            return new Step(status, "application/json", body, null);
        }

        public static Step ok(String body) {
            return answer(200, body);
        }

        public static Step fails(TransportErrorType type) {
            return new Step(0, null, null, type);
        }
    }

    private final Map<String, Deque<Step>> scripts = new HashMap<>();
    private final List<UpstreamRequest> received = new ArrayList<>();

    /** The answers of the upstream at {@code baseUrl}, in order; the last one repeats. */
    public synchronized InMemoryUpstream script(String baseUrl, Step... steps) {
        scripts.put(baseUrl, new ArrayDeque<>(List.of(steps)));
        return this;
    }

    /** The requests sent so far, in order. */
    public synchronized List<UpstreamRequest> received() {
        return List.copyOf(received);
    }

    /** How many requests went to {@code baseUrl}. */
    public synchronized long sentTo(String baseUrl) {
        return received.stream().filter(r -> r.url().startsWith(baseUrl)).count();
    }

    @Override
    public synchronized UpstreamResponse send(UpstreamRequest request) throws UpstreamTransportException {
        received.add(request);
        Deque<Step> script = scripts.entrySet().stream().filter(e -> request.url().startsWith(e.getKey()))
                .map(Map.Entry::getValue).findFirst()
                .orElseThrow(() -> new IllegalStateException("no script for " + request.url()));
        Step step = script.size() > 1 ? script.removeFirst() : script.getFirst();
        if (step.transportError() != null) {
            throw new UpstreamTransportException(new TransportError(step.transportError(),
                    "scripted " + step.transportError()));
        }
        return new Answer(step);
    }

    @Override
    public void close() {
    }

    private static final class Answer implements UpstreamResponse {
        private final Step step;
        private final InputStream body;

        Answer(Step step) {
            this.step = step;
            this.body = new ByteArrayInputStream(step.body().getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public int status() {
            return step.status();
        }

        @Override
        public List<Header> headers() {
            return List.of(new Header("content-type", step.contentType()));
        }

        @Override
        public String header(String name) {
            return "content-type".equalsIgnoreCase(name) ? step.contentType() : null;
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public void abort() {
        }

        @Override
        public void close() {
        }
    }
}
