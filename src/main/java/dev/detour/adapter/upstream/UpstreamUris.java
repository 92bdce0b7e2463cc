package dev.detour.adapter.upstream;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The upstream URLs parsed once: a pool sends every request of an endpoint to the same few URLs (an account's base
 * URL and the endpoint's path), and parsing one per request was most of building the upstream request (0.7 % of a
 * buffered request's CPU samples, docs/performance.md). A URL that does not parse is never kept, so it is refused
 * each time as before. Bounded: past {@link #MAX} URLs (many query strings) it starts over rather than grow.
 */
final class UpstreamUris {
    static final int MAX = 4096;

    private final Map<String, URI> parsed = new ConcurrentHashMap<>();

    /** As {@link URI#create}: throws IllegalArgumentException for a URL that is not one. */
    URI of(String url) {
        URI uri = parsed.get(url);
        if (uri == null) {
            uri = URI.create(url);
            if (parsed.size() >= MAX) {
                parsed.clear();
            }
            parsed.put(url, uri);
        }
        return uri;
    }

    int size() {
        return parsed.size();
    }
}
