package dev.detour.admin;

import dev.detour.admin.port.SettingField;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.port.StoredSettings;
import dev.detour.admin.port.Transactions;
import dev.detour.core.StoredText;
import dev.detour.core.ValidationException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runtime settings (U-5, SPEC GET/PUT /admin/api/settings): typed, validated, stored in the
 * {@code settings} table and cached in memory. A change is applied without a restart: listeners
 * (upstream timeouts, selection, retention…) get the new values at once on this instance, and
 * other instances pick them up on {@link #refresh()}: a change bumps the pool revision, so their next
 * snapshot reload (within a second, G-3) re-reads the table.
 */
public final class SiteSettings {
    private static final Logger log = LoggerFactory.getLogger(SiteSettings.class);
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;
    private final List<Consumer<SettingValues>> listeners = new CopyOnWriteArrayList<>();
    private final SettingValues defaults;
    private volatile SettingValues current;
    /** D-4: stored values that are not a whole number in range, by setting name (each uses its default). */
    private volatile Map<String, String> unreadable = Map.of();

    public SiteSettings(Transactions transactions, AuditLog audit, Clock clock, SettingValues defaults) {
        this.defaults = defaults;
        this.current = defaults;
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
        refresh();
    }

    public SettingValues current() {
        return current;
    }

    /**
     * W-2: the same rules writing through another unit of work (an import's one transaction); what it stores
     * reaches this instance at {@link #refresh()} after that work commits.
     */
    public SiteSettings within(Transactions work, AuditLog auditLog) {
        return new SiteSettings(work, auditLog, clock, defaults);
    }

    /** Calls {@code listener} now with the current values and after every change. */
    public void onChange(Consumer<SettingValues> listener) {
        listeners.add(listener);
        listener.accept(current);
    }

    /**
     * Re-reads the table (another instance may have changed it). D-4: a stored value that is not a whole
     * number in range falls back to its default, for that setting only; the settings page shows why, and
     * the log says so once (again only if the stored value changes).
     */
    public void refresh() {
        Map<String, Long> values = new LinkedHashMap<>(defaults.values());
        Map<String, String> bad = new LinkedHashMap<>();
        transactions.read(c -> c.settings().all()).forEach((name, stored) -> {
            SettingField field = SettingField.named(name);
            if (field == null) {
                return; // a setting this build does not know (a newer instance wrote it)
            }
            Long value = parseOrNull(stored);
            if (value != null && value >= field.min() && value <= field.max()) {
                values.put(field.name(), value);
            } else {
                bad.put(field.name(), StoredText.shortText(String.valueOf(stored)));
            }
        });
        logNewlyUnreadable(bad, values);
        unreadable = Map.copyOf(bad);
        SettingValues read = new SettingValues(values);
        if (!read.equals(current)) { // a reload of the pool re-reads them: listeners hear only of a change
            publish(read);
        }
    }

    /** D-4: setting name → the stored text that could not be used; its default applies meanwhile. */
    public Map<String, String> unreadable() {
        return unreadable;
    }

    private void logNewlyUnreadable(Map<String, String> bad, Map<String, Long> values) {
        Map<String, String> before = unreadable;
        bad.forEach((name, raw) -> {
            if (!raw.equals(before.get(name))) {
                SettingField f = SettingField.named(name);
                log.warn("stored setting {} = '{}' is not a whole number from {} to {}; using the default {} until "
                        + "it is saved again", name, raw, f.min(), f.max(), values.get(name));
            }
        });
    }

    /**
     * Validates every given field (all or nothing), stores them and applies them.
     *
     * @param changes wire name → value (any subset); unknown names and out-of-range values are
     *                rejected with {@code validation.settings.<name>}
     */
    public SettingValues update(Map<String, String> changes, String actor) {
        Map<String, Long> merged = new LinkedHashMap<>(current.values());
        changes.forEach((name, raw) -> merged.put(name, validated(name, raw)));
        checkCeilings(merged);
        SettingValues before = current;
        SettingValues after = new SettingValues(merged);
        transactions.inTransaction(c -> {
            StoredSettings stored = c.settings();
            changes.keySet().forEach(name -> stored.put(name, Long.toString(merged.get(name)), clock.instant()));
            audit.record(c, actor, "settings.update", "settings", 0, audit.documents().settings(before),
                    audit.documents().settings(after));
            c.bumpPoolRevision(); // G-3: every other instance reloads within a second and re-reads the settings
            return null;
        });
        Map<String, String> stillBad = new LinkedHashMap<>(unreadable);
        stillBad.keySet().removeAll(changes.keySet()); // D-4: a valid save repairs the stored value
        unreadable = Map.copyOf(stillBad);
        publish(after);
        return after;
    }

    private static long validated(String name, String raw) {
        SettingField field = SettingField.named(name);
        if (field == null) {
            throw new ValidationException("validation.settings.unknown", name, "unknown setting: " + name);
        }
        Long value = parseOrNull(raw);
        if (value == null || value < field.min() || value > field.max()) {
            throw new ValidationException(field.errorCode(), name,
                    name + " must be a whole number from " + field.min() + " to " + field.max());
        }
        return value;
    }

    /** S-1: a site default above the absolute maximum could never apply. */
    private static void checkCeilings(Map<String, Long> values) {
        long def = values.get(SettingField.DEFAULT_MAX_RATIO.name());
        long abs = values.get(SettingField.ABSOLUTE_MAX_RATIO.name());
        if (abs > 0 && def > abs) {
            throw new ValidationException(SettingField.DEFAULT_MAX_RATIO.errorCode(), SettingField.DEFAULT_MAX_RATIO.name(),
                    "the site default ratio must not exceed the absolute maximum");
        }
    }

    private void publish(SettingValues values) {
        current = values;
        listeners.forEach(l -> l.accept(values));
    }

    private static Long parseOrNull(String raw) {
        try {
            return raw == null ? null : Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
