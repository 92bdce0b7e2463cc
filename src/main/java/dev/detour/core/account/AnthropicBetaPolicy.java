package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * B-5: what an account's upstream gets of the client's {@code anthropic-beta} header: {@code pass} (as sent,
 * the default), {@code strip} (without the listed flags) or {@code strip_all} (no header). A relay that
 * refuses betas it does not know then still serves Claude Code, which sends several on every request.
 * {@code flags} are kept whatever the mode (the drawer keeps them across a mode change); only {@code strip}
 * reads them. Pure (JDK only).
 */
public record AnthropicBetaPolicy(String mode, List<String> flags) {
    public static final String ERROR_CODE = "validation.anthropic_beta";
    public static final String PASS = "pass";
    public static final String STRIP = "strip";
    public static final String STRIP_ALL = "strip_all";
    public static final AnthropicBetaPolicy DEFAULTS = new AnthropicBetaPolicy(PASS, List.of());
    static final int MAX_FLAGS = 50;
    /** A beta flag as Anthropic names them ({@code context-1m-2025-08-07}): no commas, spaces or quotes. */
    private static final Pattern FLAG = Pattern.compile("[A-Za-z0-9._-]{1,100}");

    public AnthropicBetaPolicy {
        if (!PASS.equals(mode) && !STRIP.equals(mode) && !STRIP_ALL.equals(mode)) {
            throw invalid("mode", "mode must be pass, strip or strip_all");
        }
        flags = flags == null ? List.of() : List.copyOf(flags);
        if (flags.size() > MAX_FLAGS) {
            throw invalid("flags", "at most " + MAX_FLAGS + " flags");
        }
        for (String flag : flags) {
            if (!FLAG.matcher(flag).matches()) {
                throw invalid("flags", "a flag is 1-100 letters, digits, '.', '_' or '-'");
            }
        }
        if (STRIP.equals(mode) && flags.isEmpty()) {
            throw invalid("flags", "strip needs at least one flag");
        }
    }

    /** Missing fields keep the defaults; flags are trimmed, blanks dropped (a form's empty line). */
    public static AnthropicBetaPolicy withDefaults(String mode, List<String> flags) {
        List<String> kept = new ArrayList<>();
        if (flags != null) {
            for (String flag : flags) {
                String trimmed = flag == null ? "" : flag.trim();
                if (!trimmed.isEmpty() && !kept.contains(trimmed)) {
                    kept.add(trimmed);
                }
            }
        }
        return new AnthropicBetaPolicy(mode != null ? mode : PASS, kept);
    }

    public boolean passesAll() {
        return PASS.equals(mode);
    }

    /**
     * The header value this account's upstream gets for the client's {@code value}, or null to send no
     * header. Flags are compared without case; the kept ones keep their order and spelling.
     */
    public String apply(String value) {
        if (PASS.equals(mode)) {
            return value;
        }
        if (STRIP_ALL.equals(mode)) {
            return null;
        }
        StringBuilder kept = new StringBuilder(value.length());
        for (String part : value.split(",")) {
            String flag = part.trim();
            if (!flag.isEmpty() && !listed(flag)) {
                kept.append(kept.isEmpty() ? "" : ",").append(flag);
            }
        }
        return kept.isEmpty() ? null : kept.toString();
    }

    private boolean listed(String flag) {
        String lower = flag.toLowerCase(Locale.ROOT);
        for (String f : flags) {
            if (f.toLowerCase(Locale.ROOT).equals(lower)) {
                return true;
            }
        }
        return false;
    }

    private static ValidationException invalid(String field, String message) {
        return new ValidationException(ERROR_CODE, "anthropic_beta." + field, message);
    }
}
