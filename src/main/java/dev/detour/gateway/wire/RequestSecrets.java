package dev.detour.gateway.wire;

import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The strings of a request that must never reach a failure message: credential header values
 * (and the token after "Bearer "), and query parameter values (Gemini's {@code ?key=}).
 * Computed only when something failed, so the hot path pays nothing (X-5: {@link #maskFor}).
 */
public final class RequestSecrets {
    /** Shorter fragments would scrub ordinary words out of messages without protecting anything. */
    private static final int MIN_SECRET_LENGTH = 6;

    private RequestSecrets() {
    }

    /** a mask of this request's secrets (the account's key among them), gathered on first use. */
    public static SecretMask maskFor(UpstreamRequest request) {
        return SecretMask.knowingLazily(() -> of(request));
    }

    public static List<String> of(UpstreamRequest request) {
        List<String> secrets = new ArrayList<>(4);
        for (Header header : request.headers()) {
            String name = header.name().toLowerCase(Locale.ROOT);
            if (credentialName(name)) {
                add(secrets, header.value());
                add(secrets, header.value().substring(header.value().lastIndexOf(' ') + 1));
            }
        }
        int query = request.url().indexOf('?');
        if (query >= 0) {
            for (String pair : request.url().substring(query + 1).split("&")) {
                String name = pair.substring(0, Math.max(0, pair.indexOf('='))).toLowerCase(Locale.ROOT);
                if (credentialName(name)) { // not alt=sse or api-version=…: those are no secrets
                    add(secrets, pair.substring(pair.indexOf('=') + 1));
                }
            }
        }
        // Longest first, so a full "Bearer sk-…" is replaced before its token part.
        secrets.sort((a, b) -> b.length() - a.length());
        return secrets;
    }

    private static boolean credentialName(String lowerCaseName) {
        return lowerCaseName.contains("auth") || lowerCaseName.contains("key") || lowerCaseName.contains("token")
                || lowerCaseName.contains("secret") || lowerCaseName.contains("sig");
    }

    private static void add(List<String> secrets, String value) {
        if (value != null && value.length() >= MIN_SECRET_LENGTH) {
            secrets.add(value);
        }
    }
}
