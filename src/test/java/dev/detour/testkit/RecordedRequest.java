package dev.detour.testkit;

import java.util.Map;

/**
 * A request as FakeUpstream received it. {@code path} includes the query string; header names
 * are lower-case, repeated headers joined with ", ".
 */
public record RecordedRequest(String method, String path, Map<String, String> headers, String body) {
    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** True when the JSON body asks for a stream ({@code "stream": true}). */
    public boolean wantsStream() {
        return body.matches("(?s).*\"stream\"\\s*:\\s*true.*");
    }

    /** The JSON body's "model" value, or null. */
    public String model() {
        var m = java.util.regex.Pattern.compile("\"model\"\\s*:\\s*\"([^\"]*)\"").matcher(body);
        return m.find() ? m.group(1) : null;
    }
}
