package dev.detour.adapter.upstream;

import java.net.URI;
import java.util.Locale;
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

    private final Map<String, Target> parsed = new ConcurrentHashMap<>();

    /**
     * As {@link URI#create}, and what a request to it needs: throws IllegalArgumentException for a URL that is not
     * one, or not an absolute http or https URL with a host.
     */
    Target of(String url) {
        Target target = parsed.get(url);
        if (target == null) {
            target = Target.of(URI.create(url));
            if (parsed.size() >= MAX) {
                parsed.clear();
            }
            parsed.put(url, target);
        }
        return target;
    }

    int size() {
        return parsed.size();
    }

    /**
     * Where a request goes: the connection it needs ({@code route}), its request line's target (path and query as
     * written) and its {@code Host} header (the URL's host, and its port when the URL names one).
     */
    record Target(URI uri, Route route, String requestTarget, String host) {
        static Target of(URI uri) {
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http or https URL with a host");
            }
            boolean tls = scheme.equals("https");
            int port = uri.getPort() >= 0 ? uri.getPort() : tls ? 443 : 80;
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
            String host = uri.getPort() >= 0 ? uri.getHost() + ":" + uri.getPort() : uri.getHost();
            return new Target(uri, new Route(tls, uri.getHost(), port), target, host);
        }
    }

    /** The upstream address connections are pooled by: requests to one route may reuse each other's connections. */
    record Route(boolean tls, String host, int port) {
        @Override
        public String toString() {
            return (tls ? "https://" : "http://") + host + ":" + port;
        }
    }
}
