package dev.detour.adapter.upstream;

import dev.detour.gateway.Header;
import dev.detour.gateway.UpstreamRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The strings of a request that must never reach a failure message: credential header values
 * (and the token after "Bearer "), and query parameter values (Gemini's {@code ?key=}).
 * Computed only when something failed, so the hot path pays nothing.
 */
final class RequestSecrets {
    /** Shorter fragments would scrub ordinary words out of messages without protecting anything. */
    private static final int MIN_SECRET_LENGTH = 6;

    private RequestSecrets() {
    }

    static List<String> of(UpstreamRequest request) {
        List<String> secrets = new ArrayList<>(4);
        for (Header header : request.headers()) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (name.contains("auth") || name.contains("key") || name.contains("token")) {
                add(secrets, header.value());
                add(secrets, header.value().substring(header.value().lastIndexOf(' ') + 1));
            }
        }
        int query = request.url().indexOf('?');
        if (query >= 0) {
            for (String pair : request.url().substring(query + 1).split("&")) {
                add(secrets, pair.substring(pair.indexOf('=') + 1));
            }
        }
        // Longest first, so a full "Bearer sk-…" is replaced before its token part.
        secrets.sort((a, b) -> b.length() - a.length());
        return secrets;
    }

    private static void add(List<String> secrets, String value) {
        if (value != null && value.length() >= MIN_SECRET_LENGTH) {
            secrets.add(value);
        }
    }
}
