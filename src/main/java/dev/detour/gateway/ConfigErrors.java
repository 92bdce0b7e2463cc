package dev.detour.gateway;

import dev.detour.core.account.Account;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-4: the accounts and keys of the snapshot Detour cannot read ({@code config_error}), watched at
 * every reload. The log gets one line when an object becomes unreadable (or its reason changes) and
 * one when it is readable again, never one per refresh; {@code /metrics} reads the count.
 */
public final class ConfigErrors {
    private static final Logger log = LoggerFactory.getLogger(ConfigErrors.class);
    private Map<String, String> reasons = Map.of();

    /** Called after each snapshot reload with the current view (synchronized: reloads may overlap). */
    public synchronized void observe(PoolSnapshot.View view) {
        Map<String, String> now = new HashMap<>();
        Map<String, String> names = new HashMap<>();
        for (Account a : view.accounts()) {
            String object = "account " + a.id() + " (" + a.name() + ")";
            names.put(object, object);
            if (a.hasConfigError()) {
                now.put(object, a.configError());
            }
        }
        for (KeyEntry k : view.keysByHash().values()) {
            String object = "key " + k.id() + " (" + k.name() + ")";
            names.put(object, object);
            if (k.configError() != null) {
                now.put(object, k.configError());
            }
        }
        now.forEach((object, reason) -> {
            if (!reason.equals(reasons.get(object))) {
                log.warn("{} is config_error and out of service: {}. Edit it to repair it{}", object, reason,
                        masterKeyHint(reason));
            }
        });
        reasons.keySet().stream().filter(o -> names.containsKey(o) && !now.containsKey(o)).sorted()
                .forEach(o -> log.info("{} is readable again and back in service", o));
        reasons = Map.copyOf(now);
    }

    /** Accounts and keys in config_error now. */
    public synchronized int count() {
        return reasons.size();
    }

    private static String masterKeyHint(String reason) {
        return reason.contains("api_key:") ? " (an upstream key that does not decrypt: is DETOUR_MASTER_KEY, or the "
                + "master.key file in the data dir, the one it was saved with? Otherwise re-enter the key)" : "";
    }
}
