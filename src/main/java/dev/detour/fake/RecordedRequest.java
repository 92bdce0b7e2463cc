package dev.detour.fake;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request as FakeUpstream received it. {@code path} includes the query string; header names
 * are lower-case, repeated headers joined with ", ".
 */
public record RecordedRequest(String method, String path, Map<String, String> headers, String body) {
    private static final Pattern MODEL = Pattern.compile("\"model\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern STREAM = Pattern.compile("\"stream\"\\s*:\\s*true");

    /** Reads the whole request body (the fake's handler is blocking). */
    static RecordedRequest of(Request request) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.merge(field.getName().toLowerCase(Locale.ROOT), field.getValue(), (a, b) -> a + ", " + b);
        }
        String body = Content.Source.asString(request, StandardCharsets.UTF_8);
        return new RecordedRequest(request.getMethod(), request.getHttpURI().getPathQuery(),
                Collections.unmodifiableMap(headers), body);
    }

    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** True when the JSON body asks for a stream ({@code "stream": true}). */
    public boolean wantsStream() {
        return STREAM.matcher(body).find();
    }

    /** The JSON body's "model" value, or null. */
    public String model() {
        Matcher m = MODEL.matcher(body);
        return m.find() ? m.group(1) : null;
    }
}
