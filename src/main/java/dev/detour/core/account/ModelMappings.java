package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An account's ordered mapping list (SPEC §1, P-12). Empty = pass-through: the account serves any
 * requested model under its own name. The rule for a requested name (P-12): an exact {@code from}
 * wins; else the prefix pattern with the longest prefix that the name starts with; else the
 * catch-all {@code *}; else the account does not serve it. A pattern's {@code to:"*"} sends the
 * requested name unchanged.
 */
public record ModelMappings(List<ModelMapping> entries) {
    public static final ModelMappings PASS_THROUGH = new ModelMappings(List.of());
    private static final int MAX_NAME = 191;
    /** P-12: a pattern-shaped mistake has its own code, so a form can say exactly what to fix. */
    public static final String WILDCARD_ERROR = "validation.model_mapping_wildcard";

    public ModelMappings {
        entries = List.copyOf(entries);
    }

    /** Validates names and duplicates; the error code is {@code validation.model_mappings}. */
    public static ModelMappings of(List<ModelMapping> entries) {
        if (entries.size() > 500) {
            throw invalid("at most 500 model mappings");
        }
        Set<String> seen = new HashSet<>();
        List<ModelMapping> clean = new ArrayList<>();
        for (ModelMapping m : entries) {
            String from = m.from() == null ? "" : m.from().trim();
            String to = m.to() == null ? "" : m.to().trim();
            if (from.isEmpty() || to.isEmpty()) {
                throw invalid("every mapping needs a non-empty from and to");
            }
            if (from.length() > MAX_NAME || to.length() > MAX_NAME) {
                throw invalid("model names are at most " + MAX_NAME + " characters");
            }
            int star = from.indexOf('*');
            if (star >= 0 && star != from.length() - 1) {
                throw wildcard("from " + from + ": a * is allowed once, as the last character (claude-sonnet-*)");
            }
            if (to.contains(ModelMapping.CATCH_ALL) && !to.equals(ModelMapping.CATCH_ALL)) {
                throw wildcard("to " + to + ": name one upstream model, or \"*\" for the requested name");
            }
            if (to.equals(ModelMapping.CATCH_ALL) && !from.endsWith(ModelMapping.CATCH_ALL)) {
                throw invalid("to \"*\" is only allowed with a pattern from (\"*\" or \"prefix*\")");
            }
            if (hasControlChars(from) || hasControlChars(to)) {
                throw invalid("model names must not contain control characters");
            }
            if (!seen.add(from)) {
                throw invalid("duplicate mapping for " + from);
            }
            clean.add(new ModelMapping(from, to));
        }
        return new ModelMappings(clean);
    }

    public boolean isPassThrough() {
        return entries.isEmpty();
    }

    /**
     * True when every mapping is a catch-all or a pattern passing names through (or there are none):
     * such an account has no fixed model set.
     */
    public boolean hasOnlyCatchAll() {
        return entries.stream().allMatch(m -> m.isCatchAll() || m.passesNameThrough());
    }

    /**
     * The upstream name this account uses for a requested model, or empty when it does not serve it
     * (P-12): exact beats any pattern, the longest matching prefix beats shorter ones, the catch-all
     * (prefix "") comes last; the first of equals wins.
     */
    public Optional<String> upstreamNameFor(String requested) {
        return Optional.ofNullable(upstreamNameOrNull(requested));
    }

    /**
     * {@link #upstreamNameFor} without the Optional, for S-1's screening of every account on every request (N-10:
     * in the running gateway the JIT did not remove those Optionals — two per account per request).
     */
    public String upstreamNameOrNull(String requested) {
        if (entries.isEmpty()) {
            return requested;
        }
        ModelMapping best = null;
        for (ModelMapping m : entries) {
            if (!m.isPattern() && m.from().equals(requested)) {
                return m.to();
            }
            if (m.isPattern() && m.matches(requested)
                    && (best == null || m.prefix().length() > best.prefix().length())) {
                best = m;
            }
        }
        return best == null ? null : best.upstreamFor(requested);
    }

    /**
     * Client-facing names that lead to the given model key: every exact mapping's {@code from}, and the
     * key itself when a prefix pattern takes it there (a name known to work). The catch-all adds none.
     */
    public List<String> clientNamesFor(String modelKey) {
        List<String> names = new ArrayList<>();
        boolean patternLeads = false;
        for (ModelMapping m : entries) {
            if (!m.isPattern() && ModelKey.of(m.to()).equals(modelKey)) {
                names.add(m.from());
            }
            patternLeads |= m.isPattern() && !m.isCatchAll() && m.matches(modelKey);
        }
        if (patternLeads && !names.contains(modelKey)
                && upstreamNameFor(modelKey).map(ModelKey::of).filter(modelKey::equals).isPresent()) {
            names.add(modelKey);
        }
        return names;
    }

    /** Distinct model keys of the mappings with a fixed upstream name (not the catch-all), in mapping order. */
    public List<String> modelKeys() {
        List<String> keys = new ArrayList<>();
        for (ModelMapping m : entries) {
            if (!m.isCatchAll() && !m.passesNameThrough() && !keys.contains(ModelKey.of(m.to()))) {
                keys.add(ModelKey.of(m.to()));
            }
        }
        return keys;
    }

    private static boolean hasControlChars(String s) {
        return s.chars().anyMatch(Character::isISOControl);
    }

    private static ValidationException wildcard(String message) {
        return new ValidationException(WILDCARD_ERROR, "model_mappings", message);
    }

    private static ValidationException invalid(String message) {
        return new ValidationException("validation.model_mappings", "model_mappings", message);
    }
}
