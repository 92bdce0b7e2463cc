package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which headers cross Detour (P-2): an allowlist upstream (the client's own key never leaves),
 * upstream auth injected by platform, and an allow-list back to the client.
 */
public final class HeaderPolicy {
    private static final Set<String> TO_UPSTREAM = Set.of("content-type", "accept", "anthropic-version",
            "anthropic-beta", "openai-beta", "user-agent", "x-stainless-lang", "x-stainless-package-version",
            "x-stainless-os", "x-stainless-arch", "x-stainless-runtime", "x-stainless-runtime-version");
    /**
     * the upstream response headers a client gets, exactly (any case): what the body needs to be read,
     * the ids a support ticket quotes, and the retry and rate-limit hints SDKs act on. Everything else
     * stays here: organisation and project ids ({@code openai-organization}, {@code openai-project},
     * {@code anthropic-organization-id}), cookies, server and CDN details, and hop-by-hop headers;
     * {@code content-length} is Detour's own (a masked error body changes length).
     */
    static final List<String> TO_CLIENT = List.of("content-type", "content-encoding", "cache-control",
            "retry-after", "retry-after-ms", "x-should-retry", "x-request-id", "request-id", "openai-version",
            "openai-processing-ms");
    /** and every header starting with one of these (OpenAI's and Anthropic's rate-limit families). */
    static final List<String> TO_CLIENT_PREFIXES = List.of("x-ratelimit-", "anthropic-ratelimit-");
    private static final String ANTHROPIC_VERSION = "2023-06-01";

    private HeaderPolicy() {
    }

    public static List<Header> upstream(ClientCall call, Account account, String apiKey) {
        List<Header> out = new ArrayList<>(8);
        boolean hasVersion = false;
        for (Header h : call.headers()) {
            String name = h.name().toLowerCase(Locale.ROOT);
            if (TO_UPSTREAM.contains(name)) {
                out.add(new Header(name, h.value()));
                hasVersion |= name.equals("anthropic-version");
            }
        }
        // bodies are classified before they reach the client: ask for them uncompressed
        out.add(new Header("accept-encoding", "identity"));
        boolean anthropicFamily = call.family().protocol() == EndpointFamily.Protocol.ANTHROPIC;
        if (account.platform() == Platform.ANTHROPIC) {
            out.add(new Header("x-api-key", apiKey));
        } else {
            out.add(new Header("authorization", "Bearer " + apiKey));
            if (anthropicFamily) {
                out.add(new Header("x-api-key", apiKey));
            }
        }
        if (anthropicFamily && !hasVersion) {
            out.add(new Header("anthropic-version", ANTHROPIC_VERSION));
        }
        return out;
    }

    public static List<Header> toClient(List<Header> upstreamHeaders) {
        List<Header> out = new ArrayList<>(upstreamHeaders.size());
        for (Header h : upstreamHeaders) {
            if (allowedToClient(h.name())) {
                out.add(h);
            }
        }
        return out;
    }

    /** X-5's allow-list; no lower-case copy per header (this runs for every header of every answer). */
    public static boolean allowedToClient(String name) {
        for (String allowed : TO_CLIENT) {
            if (allowed.equalsIgnoreCase(name)) {
                return true;
            }
        }
        for (String prefix : TO_CLIENT_PREFIXES) {
            if (name.length() > prefix.length() && name.regionMatches(true, 0, prefix, 0, prefix.length())) {
                return true;
            }
        }
        return false;
    }
}
