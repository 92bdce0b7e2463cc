package dev.detour.core.account;

import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * An account's ordered mapping list (SPEC §1). Empty = pass-through: the account serves any
 * requested model under its own name.
 */
public record ModelMappings(List<ModelMapping> entries) {
    public static final ModelMappings PASS_THROUGH = new ModelMappings(List.of());
    private static final int MAX_NAME = 191;

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
            if (to.equals(ModelMapping.CATCH_ALL) && !from.equals(ModelMapping.CATCH_ALL)) {
                throw invalid("to \"*\" is only allowed with from \"*\"");
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

    /** True when every mapping is a catch-all (or there are none): such an account has no fixed model set. */
    public boolean hasOnlyCatchAll() {
        return entries.stream().allMatch(ModelMapping::isCatchAll);
    }

    /**
     * The upstream name this account uses for a requested model, or empty when it does not serve it.
     * Exact mappings win over the catch-all; {@code to:"*"} passes the name through.
     */
    public Optional<String> upstreamNameFor(String requested) {
        if (entries.isEmpty()) {
            return Optional.of(requested);
        }
        ModelMapping catchAll = null;
        for (ModelMapping m : entries) {
            if (m.isCatchAll()) {
                catchAll = catchAll == null ? m : catchAll;
            } else if (m.from().equals(requested)) {
                return Optional.of(m.to());
            }
        }
        if (catchAll == null) {
            return Optional.empty();
        }
        return Optional.of(ModelMapping.CATCH_ALL.equals(catchAll.to()) ? requested : catchAll.to());
    }

    /** Client-facing names (not the catch-all) whose mapping leads to the given model key. */
    public List<String> clientNamesFor(String modelKey) {
        List<String> names = new ArrayList<>();
        for (ModelMapping m : entries) {
            if (!m.isCatchAll() && ModelKey.of(m.to()).equals(modelKey)) {
                names.add(m.from());
            }
        }
        return names;
    }

    /** Distinct model keys of the non-catch-all mappings, in mapping order. */
    public List<String> modelKeys() {
        List<String> keys = new ArrayList<>();
        for (ModelMapping m : entries) {
            if (!m.isCatchAll() && !keys.contains(ModelKey.of(m.to()))) {
                keys.add(ModelKey.of(m.to()));
            }
        }
        return keys;
    }

    private static boolean hasControlChars(String s) {
        return s.chars().anyMatch(Character::isISOControl);
    }

    private static ValidationException invalid(String message) {
        return new ValidationException("validation.model_mappings", "model_mappings", message);
    }
}
