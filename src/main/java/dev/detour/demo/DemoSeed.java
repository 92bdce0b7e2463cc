package dev.detour.demo;

import dev.detour.admin.AccountAdmin;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.KeyPatch;
import dev.detour.admin.port.StoredAccount;
import dev.detour.config.ConfigException;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Puts the sample pool in place through the ordinary admin use cases (validation and audit apply,
 * actor {@code demo}). Idempotent: what exists is kept; only the accounts' base URLs follow the
 * demo upstream's new port. The demo key is stored as a hash like any key, so a later start rotates
 * it to be able to show it again.
 */
final class DemoSeed {
    /** What one start did; {@code key} is the demo key in clear (a demo key, so it may be printed). */
    record Outcome(String key, int groupsCreated, int accountsCreated, int accountsMoved) {
    }

    private final GroupAdmin groups;
    private final AccountAdmin accounts;
    private final KeyAdmin keys;

    DemoSeed(GroupAdmin groups, AccountAdmin accounts, KeyAdmin keys) {
        this.groups = groups;
        this.accounts = accounts;
        this.keys = keys;
    }

    Outcome apply(DemoUpstream upstream) {
        Map<String, StoredAccount> existing = accounts.list().stream()
                .collect(Collectors.toMap(a -> a.config().name(), Function.identity()));
        refuseRealPool(existing.keySet());
        int groupsCreated = createMissingGroups();
        int created = 0;
        int moved = 0;
        for (DemoPool.Account demo : DemoPool.ACCOUNTS) {
            String url = upstream.url(demo.behaviour());
            StoredAccount stored = existing.get(demo.name());
            if (stored == null) {
                accounts.create(DemoPool.ACTOR, demo.create(url));
                created++;
            } else if (!stored.config().baseUrl().equals(url)) {
                accounts.update(DemoPool.ACTOR, stored.id(), DemoPool.Account.moveTo(url));
                moved++;
            }
        }
        return new Outcome(demoKey(), groupsCreated, created, moved);
    }

    /** The demo writes sample accounts: a pool holding anything else is someone's real pool. */
    private static void refuseRealPool(Set<String> accountNames) {
        accountNames.stream().filter(name -> !DemoPool.isDemoAccount(name)).findFirst().ifPresent(name -> {
            throw new ConfigException("DETOUR_DEMO: the database already holds a real pool (account '" + name
                    + "'); point DETOUR_DATA_DIR at an empty directory for the demo");
        });
    }

    private int createMissingGroups() {
        Set<String> present = groups.list().stream().map(g -> g.name()).collect(Collectors.toSet());
        int created = 0;
        for (DemoPool.Group group : DemoPool.GROUPS) {
            if (!present.contains(group.name())) {
                groups.create(DemoPool.ACTOR, group.patch());
                created++;
            }
        }
        return created;
    }

    private String demoKey() {
        return keys.list().stream().filter(k -> DemoPool.KEY_NAME.equals(k.name())).findFirst()
                .map(k -> keys.rotate(DemoPool.ACTOR, k.id()).key())
                .orElseGet(() -> keys.create(DemoPool.ACTOR,
                        KeyPatch.parse(JsonNodeFactory.instance.objectNode().put("name", DemoPool.KEY_NAME))).key());
    }
}
