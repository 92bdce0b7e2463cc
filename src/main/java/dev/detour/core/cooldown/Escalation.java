package dev.detour.core.cooldown;

import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** C-3: when every serviceable model of an account is unavailable, the whole account backs off. */
public final class Escalation {
    private Escalation() {
    }

    /**
     * The account's serviceable model keys: its mapped keys; for an account with no mappings or only
     * a catch-all, the keys it has a row for or served in the last 24 h — always at least the current
     * key, so a wholly broken pass-through relay escalates after each known model failed once.
     */
    public static Set<String> serviceableKeys(ModelMappings mappings, Collection<String> rowKeys,
            Collection<String> recentlyServedKeys, String currentKey) {
        Set<String> keys = new LinkedHashSet<>();
        if (mappings.hasOnlyCatchAll()) {
            keys.addAll(rowKeys);
            keys.addAll(recentlyServedKeys);
        } else {
            keys.addAll(mappings.modelKeys());
        }
        if (currentKey != null) {
            keys.add(currentKey);
        }
        return keys;
    }

    /**
     * True when the denominator (serviceable keys minus paused ones) is not empty and every key in it
     * is cooling or in error at {@code now}. {@code rows} must already hold the row just written.
     */
    public static boolean allUnavailable(Set<String> serviceableKeys, List<ModelState> rows, Instant now) {
        int denominator = 0;
        for (String key : serviceableKeys) {
            ModelState row = find(rows, key);
            if (row != null && row.status() == ModelStatus.PAUSED) {
                continue; // pausing three of four must not let the fourth's failure fake an outage
            }
            denominator++;
            if (row == null || !row.unavailableAt(now)) {
                return false;
            }
        }
        return denominator > 0;
    }

    static ModelState find(List<ModelState> rows, String key) {
        for (ModelState row : rows) {
            if (row.modelKey().equals(key)) {
                return row;
            }
        }
        return null;
    }
}
