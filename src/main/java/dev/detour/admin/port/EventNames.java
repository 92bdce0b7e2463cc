package dev.detour.admin.port;

import dev.detour.core.ValidationException;
import java.util.List;
import java.util.Map;

/**
 * U-7: the names the request log and the dashboard show for the ids an event carries — keys, accounts (archived ones
 * too: old events still name them) and groups — and the models requested so far, for the filters' pickers.
 */
public record EventNames(Map<Long, Named> keys, Map<Long, Named> accounts, Map<Long, Named> groups,
        List<String> models) {

    /** An object by id and name; {@code archived}: an account kept only for its history. */
    public record Named(long id, String name, boolean archived) {
    }

    /** Where the names come from (the database: every key, account and group, not only the pool's live ones). */
    public interface Source {
        EventNames all();
    }

    public static final EventNames NONE = new EventNames(Map.of(), Map.of(), Map.of(), List.of());

    public String key(Long id) {
        return nameOf(keys, id);
    }

    public String account(Long id) {
        return nameOf(accounts, id);
    }

    public String group(Long id) {
        return nameOf(groups, id);
    }

    /** True for an account kept only for its history. */
    public boolean archivedAccount(Long id) {
        return id != null && accounts.containsKey(id) && accounts.get(id).archived();
    }

    /** The name of {@code id} in {@code names}; {@code #id} for an object deleted since; null for no id. */
    public static String nameOf(Map<Long, Named> names, Long id) {
        if (id == null) {
            return null;
        }
        Named named = names.get(id);
        return named == null ? "#" + id : named.name();
    }

    /**
     * A filter value as an id: a number is an id (old links keep working), anything else a name looked up in
     * {@code names}; an unknown name is a validation error on {@code field}.
     */
    public static Long idOf(Map<Long, Named> names, String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.trim();
        if (text.chars().allMatch(Character::isDigit) && text.length() < 19) {
            return Long.parseLong(text);
        }
        return names.values().stream().filter(n -> n.name().equals(text)).map(Named::id).findFirst()
                .orElseThrow(() -> new ValidationException("validation." + field, field, "no " + field + " is named " + text));
    }
}
