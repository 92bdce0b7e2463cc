package dev.detour.demo;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One answer of the demo upstream: status, extra headers, and the body as parts — one part for a
 * buffered JSON answer, one SSE frame per part for a stream (each flushed on its own).
 */
record DemoReply(int status, Map<String, String> headers, boolean eventStream, List<String> parts, Duration delay) {
    DemoReply {
        headers = Map.copyOf(headers);
        parts = List.copyOf(parts);
    }

    static DemoReply json(int status, Map<String, String> headers, String body) {
        return new DemoReply(status, headers, false, List.of(body), Duration.ZERO);
    }

    DemoReply after(Duration wait) {
        return new DemoReply(status, headers, eventStream, parts, wait);
    }

    String body() {
        return String.join("", parts);
    }
}
