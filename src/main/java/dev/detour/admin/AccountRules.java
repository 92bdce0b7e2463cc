package dev.detour.admin;

import dev.detour.core.ValidationException;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Platform;
import dev.detour.core.account.Protocols;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;

/** Field rules for accounts (SPEC §1, §9) with their stable validation codes. */
public final class AccountRules {
    static final int MAX_NAME = 128;
    static final int MAX_NOTES = 10_000;
    static final int MAX_API_KEY = 1024;

    private AccountRules() {
    }

    public static String name(String raw) {
        String name = raw == null ? "" : raw.trim();
        if (name.isEmpty() || name.length() > MAX_NAME || name.chars().anyMatch(Character::isISOControl)) {
            throw new ValidationException("validation.name", "name", "name must be 1 to " + MAX_NAME + " characters");
        }
        return name;
    }

    /**
     * §9: an http(s) origin plus an optional path prefix; a trailing "/" and a trailing "/v1" are
     * stripped because Detour appends the client's path ({@code /v1/chat/completions}).
     */
    public static String baseUrl(String raw) {
        String text = raw == null ? "" : raw.trim();
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean ok = (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null;
            if (!ok || text.length() > 512) {
                throw badBaseUrl();
            }
            String path = stripSlashes(uri.getRawPath() == null ? "" : uri.getRawPath());
            if (path.endsWith("/v1")) {
                path = stripSlashes(path.substring(0, path.length() - 3));
            }
            String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + port + path;
        } catch (URISyntaxException e) {
            throw badBaseUrl();
        }
    }

    public static String apiKey(String raw) {
        String key = raw == null ? "" : raw.trim();
        boolean printable = key.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (key.isEmpty() || key.length() > MAX_API_KEY || !printable) {
            throw new ValidationException("validation.api_key", "api_key",
                    "api_key must be 1 to " + MAX_API_KEY + " printable ASCII characters without spaces");
        }
        return key;
    }

    public static void families(Set<EndpointFamily> families, Platform platform) {
        if (families == null) {
            return;
        }
        if (families.isEmpty()) {
            throw new ValidationException("validation.endpoint_family", "endpoint_families",
                    "endpoint_families needs at least one family (or leave it out for the platform default)");
        }
        for (EndpointFamily family : families) {
            if (!platform.canServe(family)) {
                throw new ValidationException("validation.endpoint_family", "endpoint_families",
                        "platform " + platform.wire() + " cannot serve " + family.wire());
            }
        }
    }

    /**
     * B-1: the client protocols an account serves natively — at least one of chat_completions, responses,
     * messages, each one its platform can speak (OpenAI: the first two; Anthropic: messages; a compatible
     * relay: any). Null = the platform's default.
     */
    public static void protocols(Set<EndpointFamily> protocols, Platform platform) {
        if (protocols == null) {
            return;
        }
        if (protocols.isEmpty()) {
            throw new ValidationException("validation.protocols", "protocols",
                    "protocols needs at least one of chat_completions, responses, messages (or leave it out for the"
                            + " platform default)");
        }
        for (EndpointFamily protocol : protocols) {
            if (!Protocols.conversational(protocol) || !platform.speaks(protocol)) {
                throw new ValidationException("validation.protocols", "protocols",
                        "platform " + platform.wire() + " cannot speak " + protocol.wire() + " natively");
            }
        }
    }

    public static int range(int value, int min, int max, String field) {
        if (value < min || value > max) {
            throw new ValidationException("validation." + field, field,
                    field + " must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    public static Long quotaRemaining(Long value) {
        if (value != null && value < 0) {
            throw new ValidationException("validation.quota_remaining", "quota_remaining",
                    "quota_remaining must be null or at least 0");
        }
        return value;
    }

    public static String notes(String value) {
        if (value != null && value.length() > MAX_NOTES) {
            throw new ValidationException("validation.notes", "notes", "notes are at most " + MAX_NOTES + " characters");
        }
        return value;
    }

    private static String stripSlashes(String path) {
        String p = path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }

    private static ValidationException badBaseUrl() {
        return new ValidationException("validation.base_url", "base_url",
                "base_url must be an http(s) origin with an optional path prefix, without query or credentials");
    }
}
