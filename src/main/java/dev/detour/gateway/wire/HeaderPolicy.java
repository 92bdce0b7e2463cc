package dev.detour.gateway.wire;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which headers cross Detour (P-2): an allowlist upstream (the client's own key never leaves),
 * upstream auth injected by platform, and an allow-list back to the client.
 */
public final class HeaderPolicy {
    /**
     * The one list of hop-by-hop headers (RFC 9110 §7.6.1): stripped both ways (P-2) by every hop Detour
     * makes, and any {@code proxy-*} header counts too ({@link #isHopByHop}).
     */
    public static final List<String> HOP_BY_HOP = List.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade");
    /**
     * P-2 / P-12: the client headers an upstream gets, exactly (any case): what the body needs, and the
     * session and feature headers coding agents send so that relays keep a session's prompt cache and
     * features — Claude Code's {@code x-app} and {@code x-claude-code-session-id}, Codex's
     * {@code originator}, {@code session_id}/{@code session-id} and {@code conversation_id}. Never
     * {@code authorization} or {@code x-api-key} (the client's Detour key: the account's credential is
     * injected instead), never hop-by-hop ({@link #HOP_BY_HOP}), never
     * {@code host}, {@code content-length}, {@code accept-encoding} (Detour's own), {@code cookie} or
     * forwarding headers.
     */
    static final Set<String> TO_UPSTREAM = Set.of("content-type", "accept", "user-agent", "openai-beta", "x-app",
            "x-claude-code-session-id", "session-id", "session_id", "originator", "conversation_id");
    /** P-12: and every header starting with one of these: Anthropic's feature headers, Codex's, the SDKs'. */
    static final List<String> TO_UPSTREAM_PREFIXES = List.of("anthropic-", "x-codex-", "x-stainless-");
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
    private static final String ANTHROPIC_BETA = "anthropic-beta";

    private HeaderPolicy() {
    }

    public static List<Header> upstream(ClientCall call, Account account, String apiKey) {
        return upstream(call, account, apiKey, call.family());
    }

    /**
     * B-3: the headers for an upstream asked in {@code protocol}, which differs from the client's family when
     * the request is bridged: auth and {@code anthropic-version} follow the upstream's protocol, and an
     * OpenAI upstream of an Anthropic client gets none of its {@code anthropic-*} feature headers.
     */
    public static List<Header> upstream(ClientCall call, Account account, String apiKey, EndpointFamily protocol) {
        List<Header> out = new ArrayList<>(8);
        boolean hasVersion = false;
        boolean anthropicFamily = protocol.protocol() == EndpointFamily.Protocol.ANTHROPIC;
        boolean dropAnthropic = !anthropicFamily && call.family().protocol() == EndpointFamily.Protocol.ANTHROPIC;
        for (Header h : call.headers()) {
            String name = h.name().toLowerCase(Locale.ROOT);
            if (dropAnthropic && name.startsWith("anthropic-")) {
                continue; // B-3: none of an Anthropic client's feature headers go to an OpenAI upstream
            }
            if (name.equals(ANTHROPIC_BETA)) {
                String kept = account.anthropicBeta().apply(h.value()); // B-5: the account's beta policy
                if (kept != null) {
                    out.add(new Header(name, kept));
                }
            } else if (forwardedUpstream(name)) {
                out.add(new Header(name, h.value()));
                hasVersion |= name.equals("anthropic-version");
            }
        }
        // bodies are classified before they reach the client: ask for them uncompressed
        out.add(new Header("accept-encoding", "identity"));
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

    /** True for the names in {@link #HOP_BY_HOP} and any other {@code proxy-*} header, in any case. */
    public static boolean isHopByHop(String name) {
        for (String hopByHop : HOP_BY_HOP) { // no lower-case copy per header: this runs for every header both ways
            if (hopByHop.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return name.regionMatches(true, 0, "proxy-", 0, 6);
    }

    /** P-12's forward list, for a lower-case header name. */
    static boolean forwardedUpstream(String lowerName) {
        if (TO_UPSTREAM.contains(lowerName)) {
            return true;
        }
        for (String prefix : TO_UPSTREAM_PREFIXES) {
            if (lowerName.length() > prefix.length() && lowerName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
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
