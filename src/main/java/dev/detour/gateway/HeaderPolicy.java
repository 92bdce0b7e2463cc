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
 * upstream auth injected by platform, hop-by-hop headers stripped both ways.
 */
public final class HeaderPolicy {
    private static final Set<String> TO_UPSTREAM = Set.of("content-type", "accept", "anthropic-version",
            "anthropic-beta", "openai-beta", "user-agent", "x-stainless-lang", "x-stainless-package-version",
            "x-stainless-os", "x-stainless-arch", "x-stainless-runtime", "x-stainless-runtime-version");
    private static final Set<String> NOT_TO_CLIENT = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "te", "trailer", "trailers", "transfer-encoding", "upgrade", "content-length",
            "set-cookie", "server", "date");
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
            if (!NOT_TO_CLIENT.contains(h.name().toLowerCase(Locale.ROOT))) {
                out.add(h);
            }
        }
        return out;
    }
}
