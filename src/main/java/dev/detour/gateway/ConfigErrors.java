package dev.detour.gateway;

import dev.detour.core.account.Account;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.KeyEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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

    /**
     * Called after each snapshot reload with the current view (synchronized: reloads may overlap).
     * Logs and returns the transition lines: an object newly unreadable (or with a new reason), and
     * one readable again; nothing when the state is unchanged.
     */
    public synchronized List<String> observe(PoolSnapshot.View view) {
        Map<String, String> now = new TreeMap<>();
        Set<String> present = new HashSet<>();
        for (Account a : view.accounts()) {
            String object = "account " + a.id() + " (" + a.name() + ")";
            present.add(object);
            if (a.hasConfigError()) {
                now.put(object, a.configError());
            }
        }
        for (KeyEntry k : view.keysByHash().values()) {
            String object = "key " + k.id() + " (" + k.name() + ")";
            present.add(object);
            if (k.configError() != null) {
                now.put(object, k.configError());
            }
        }
        List<String> lines = new ArrayList<>();
        now.forEach((object, reason) -> {
            if (!reason.equals(reasons.get(object))) {
                String line = object + " is config_error and out of service: " + reason + ". Edit it to repair it"
                        + masterKeyHint(reason);
                log.warn(line);
                lines.add(line);
            }
        });
        reasons.keySet().stream().filter(o -> present.contains(o) && !now.containsKey(o)).sorted().forEach(o -> {
            String line = o + " is readable again and back in service";
            log.info(line);
            lines.add(line);
        });
        reasons = Map.copyOf(now);
        return lines;
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
