package dev.detour.core.secret;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * masks secrets in text that came from an upstream (error bodies, failure messages) before it is
 * stored, shown, logged or relayed. Two passes, in this order:
 * <ol>
 * <li><b>Known secrets</b> (the account's upstream key, the request's credential values): every exact
 * occurrence of a whitespace-separated part of at least {@value #MIN_KNOWN} characters becomes
 * {@link #hint}.</li>
 * <li><b>Token shapes</b>, for keys Detour does not know (another account's, a relay's own):
 *   <ul>
 *   <li>{@code Bearer <v>} / {@code Basic <v>}: the value is masked when it has ≥ 8 characters of
 *   {@code [A-Za-z0-9._~+/=-]} and a digit (so "Bearer authentication required" stays);</li>
 *   <li>a credential-named field ({@code api_key}, {@code api-key}, {@code apikey}, {@code x-api-key},
 *   {@code x-goog-api-key}, {@code access_token}, {@code refresh_token}, {@code id_token},
 *   {@code auth_token}, {@code client_secret}, {@code secret_key}, {@code secret}, {@code password},
 *   {@code authorization}, any case, {@code -} or {@code _}) followed by {@code :} or {@code =} (JSON,
 *   header or query style, quotes and JSON escapes allowed): its value of ≥ 8 characters with a digit,
 *   and {@code ?key=}/{@code &key=} query values likewise;</li>
 *   <li>a run of {@code [A-Za-z0-9_-]} (bounded by other characters) that {@link #keyLike looks like a
 *   key}: {@code sk-…} (also {@code sk-ant-}, {@code sk-proj-}), {@code dtr-…} of ≥ 20 characters,
 *   {@code AIza…} of ≥ 30, or a random-looking segment (see {@link #keyLike}).</li>
 *   </ul></li>
 * </ol>
 * The masked form never matches again (its "…" is outside every token alphabet), so masking twice
 * changes nothing. Pure and total; meant for failure paths only (never for relayed 2xx output).
 */
public final class SecretMask {
    /** Masks token shapes only: for text with no request behind it (stored rows, internal messages). */
    public static final SecretMask SHAPES = new SecretMask(List::of);

    /** Shorter known values would scrub ordinary words out of messages without protecting anything. */
    static final int MIN_KNOWN = 8;
    /** The generic rule: a segment this long, with a digit, a lower- and an upper-case letter. */
    static final int MIN_RANDOM_SEGMENT = 20;
    /** No key is longer; a longer run of token characters is cut where it is. */
    static final int MAX_TOKEN = 512;

    /** Ids that upstreams put in error bodies and that operators need to quote to support: never masked. */
    static final List<String> ID_PREFIXES = List.of("req_", "req-", "msg_", "chatcmpl-", "cmpl-", "resp_",
            "toolu_", "srvtoolu_", "call_", "run_", "thread_", "asst_", "file-", "file_", "batch_", "gen-",
            "evt_", "step_", "org-", "proj_", "user-", "ft-", "ftjob-", "modr-", "vs_", "msgbatch_");

    /** Credential field names with {@code -} and {@code _} removed, lower-cased. */
    private static final Set<String> NAMES = Set.of("apikey", "xapikey", "googapikey", "xgoogapikey",
            "accesstoken", "refreshtoken", "idtoken", "authtoken", "clientsecret", "secretkey", "secret", "password",
            "authorization");

    private final Supplier<? extends Collection<String>> source;
    private List<String> known;

    private SecretMask(Supplier<? extends Collection<String>> source) {
        this.source = source;
    }

    /** Masks {@code secrets} (and token shapes). */
    public static SecretMask knowing(Collection<String> secrets) {
        return new SecretMask(() -> secrets);
    }

    /** As {@link #knowing(Collection)}, with the secrets gathered only when something is masked (failure paths). */
    public static SecretMask knowingLazily(Supplier<? extends Collection<String>> secrets) {
        return new SecretMask(secrets);
    }

    /**
     * The one masking format: the first 3 characters (4 when the 4th is {@code -}, so {@code dtr-} reads
     * whole), "…", the last 4: {@code sk-…abcd}, {@code dtr-…abcd}. Under 12 characters: "…" + the last 2.
     */
    public static String hint(String secret) {
        if (secret.length() < 12) {
            return "…" + secret.substring(Math.max(0, secret.length() - 2));
        }
        int head = secret.charAt(3) == '-' ? 4 : 3;
        return secret.substring(0, head) + "…" + secret.substring(secret.length() - 4);
    }

    /** {@code text} with every known secret and token shape masked; null stays null. */
    public String apply(String text) {
        if (text == null || text.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : known()) {
            if (out.contains(secret)) {
                out = out.replace(secret, hint(secret));
            }
        }
        return shapes(out);
    }

    /** UTF-8 bytes masked; the same array when nothing changed (no copy for the common case). */
    public byte[] apply(byte[] utf8) {
        if (utf8 == null || utf8.length == 0) {
            return utf8;
        }
        String text = new String(utf8, StandardCharsets.UTF_8);
        String masked = apply(text);
        return masked.equals(text) ? utf8 : masked.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * At most {@code max} characters of text still to be masked, cut before a token (of up to
     * {@value #MAX_TOKEN} characters) that the cut would split: a cut key matches no rule any more, so
     * its head must not be kept. A longer run is no key and is cut where it is.
     */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int end = max;
        if (isTokenChar(text.charAt(end - 1)) && isTokenChar(text.charAt(end))) {
            while (end > 0 && max - end < MAX_TOKEN && isTokenChar(text.charAt(end - 1))) {
                end--;
            }
            if (end > 0 && isTokenChar(text.charAt(end - 1))) {
                end = max; // a run too long to be a key
            }
        }
        return text.substring(0, end);
    }

    private List<String> known() {
        if (known == null) {
            List<String> parts = new ArrayList<>();
            Collection<String> secrets = source.get();
            if (secrets != null) {
                for (String secret : secrets) {
                    if (secret == null) {
                        continue;
                    }
                    // "Bearer sk-…" is masked as its token: the scheme word stays readable
                    for (String part : secret.trim().split("\\s+")) {
                        if (part.length() >= MIN_KNOWN && !parts.contains(part)) {
                            parts.add(part);
                        }
                    }
                }
            }
            parts.sort((a, b) -> b.length() - a.length()); // longest first: a key before its own substrings
            known = parts;
        }
        return known;
    }

    /**
     * One linear pass over the runs of {@code [A-Za-z0-9_-]} (a hand scanner: a regular expression with
     * these alternatives took ~40 µs for a 300-byte error body, this ~1 µs).
     */
    private static String shapes(String text) {
        StringBuilder out = null;
        int last = 0;
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (!isRunChar(text.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            while (i < n && isRunChar(text.charAt(i))) {
                i++;
            }
            int[] value = secretAfter(text, start, i);
            int from = value == null ? start : value[0];
            int to = value == null ? i : value[1];
            if (value == null && !(i - start >= MIN_RANDOM_SEGMENT && keyLike(text.substring(start, i)))) {
                continue;
            }
            if (out == null) {
                out = new StringBuilder(n);
            }
            out.append(text, last, from).append(hint(text.substring(from, to)));
            last = to;
            i = Math.max(i, to);
        }
        return out == null ? text : out.append(text, last, n).toString();
    }

    /**
     * The span {@code [from, to)} of a credential value that the run {@code [start, end)} introduces (a
     * credential-named field, {@code Bearer}/{@code Basic}, a {@code ?key=} query parameter), or null.
     */
    private static int[] secretAfter(String text, int start, int end) {
        int length = end - start;
        if (length == 6 || length == 5) {
            if (text.regionMatches(true, start, "bearer", 0, length) && length == 6
                    || text.regionMatches(true, start, "basic", 0, length) && length == 5) {
                int at = skipSpaces(text, end);
                if (at > end) {
                    return valueAt(text, at, true);
                }
            }
        }
        if (length == 3 && text.startsWith("key", start) && start > 0
                && (text.charAt(start - 1) == '?' || text.charAt(start - 1) == '&')
                && end < text.length() && text.charAt(end) == '=') {
            return valueAt(text, end + 1, false);
        }
        if (length < 6 || length > 14 || !NAMES.contains(normalizedName(text, start, end))) {
            return null;
        }
        int at = end;
        at = skip(text, at, '\\');
        at = skip(text, at, '"');
        at = skip(text, at, '\'');
        at = skipSpaces(text, at);
        if (at >= text.length() || (text.charAt(at) != ':' && text.charAt(at) != '=')) {
            return null;
        }
        at = skipSpaces(text, at + 1);
        at = skip(text, at, '\\');
        at = skip(text, at, '"');
        at = skip(text, at, '\'');
        int scheme = schemeEnd(text, at);
        return valueAt(text, scheme, false);
    }

    /** After "Bearer " or "Basic " (kept): where the credential starts; else {@code at}. */
    private static int schemeEnd(String text, int at) {
        for (String scheme : new String[] {"bearer", "basic"}) {
            int end = at + scheme.length();
            if (text.regionMatches(true, at, scheme, 0, scheme.length()) && end < text.length()
                    && Character.isWhitespace(text.charAt(end))) {
                return skipSpaces(text, end);
            }
        }
        return at;
    }

    /** A value of ≥ 8 characters with a digit: token characters after a scheme, else anything but delimiters. */
    private static int[] valueAt(String text, int from, boolean tokenOnly) {
        int to = from;
        while (to < text.length() && (tokenOnly ? isToken68(text.charAt(to)) : !isDelimiter(text.charAt(to)))) {
            to++;
        }
        if (to - from < 8 || !hasDigit(text, from, to)) {
            return null;
        }
        return new int[] {from, to};
    }

    private static String normalizedName(String text, int start, int end) {
        StringBuilder name = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c != '-' && c != '_') {
                name.append(Character.toLowerCase(c));
            }
        }
        return name.toString();
    }

    private static int skip(String text, int at, char c) {
        return at < text.length() && text.charAt(at) == c ? at + 1 : at;
    }

    private static int skipSpaces(String text, int at) {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        return at;
    }

    private static boolean isRunChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_';
    }

    /** RFC 7235 token68 characters, as a Bearer credential has them. */
    private static boolean isToken68(char c) {
        return isRunChar(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '=';
    }

    /** Where a header, JSON or query value ends. */
    private static boolean isDelimiter(char c) {
        return Character.isWhitespace(c) || "\"'&,;<>\\()[]{}…".indexOf(c) >= 0;
    }

    /**
     * Whether a run of {@code [A-Za-z0-9_-]} (≥ 20 characters, bounded by other characters) is a key:
     * <ul>
     * <li>yes when it starts with {@code sk-} or {@code dtr-} (≥ 20 characters) or {@code AIza}
     * (≥ 30 characters);</li>
     * <li>no when it starts with an id prefix ({@link #ID_PREFIXES}: {@code req_}, {@code msg_},
     * {@code chatcmpl-}, …) or with 8 digits (relays' timestamp-led request ids);</li>
     * <li>otherwise yes when one of its {@code -}/{@code _} separated segments has ≥ 20 characters with
     * a digit, a lower-case and an upper-case letter (random base62/base64url). Model names
     * ({@code claude-3-5-sonnet-20241022}), UUIDs, hex hashes and trace ids stay.</li>
     * </ul>
     */
    static boolean keyLike(String run) {
        if (run.startsWith("sk-") || run.startsWith("dtr-")) {
            return true; // the run is ≥ 20 characters long already
        }
        if (run.startsWith("AIza")) {
            return run.length() >= 30;
        }
        String lower = run.toLowerCase(Locale.ROOT);
        for (String prefix : ID_PREFIXES) {
            if (lower.startsWith(prefix)) {
                return false;
            }
        }
        if (leadingDigits(run) >= 8) {
            return false;
        }
        int start = 0;
        for (int i = 0; i <= run.length(); i++) {
            if (i == run.length() || run.charAt(i) == '-' || run.charAt(i) == '_') {
                if (i - start >= MIN_RANDOM_SEGMENT && mixed(run, start, i)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private static boolean mixed(String s, int from, int to) {
        boolean digit = false;
        boolean lower = false;
        boolean upper = false;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            digit |= c >= '0' && c <= '9';
            lower |= c >= 'a' && c <= 'z';
            upper |= c >= 'A' && c <= 'Z';
        }
        return digit && lower && upper;
    }

    private static int leadingDigits(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) >= '0' && s.charAt(n) <= '9') {
            n++;
        }
        return n;
    }

    private static boolean hasDigit(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                return true;
            }
        }
        return false;
    }

    private static boolean isTokenChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                || c == '.' || c == '+' || c == '/' || c == '=';
    }
}
