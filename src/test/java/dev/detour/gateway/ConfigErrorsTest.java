package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.Account;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.testkit.AccountMother;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** D-4: one log line per object and transition, never one per refresh; the gauge counts accounts and keys. */
class ConfigErrorsTest {
    private final ConfigErrors errors = new ConfigErrors();

    @Test
    void anUnreadableAccountIsReportedOnceAndAgainOnlyWhenItsReasonChangesOrItIsRepaired() {
        Account sound = AccountMother.account(1).build();
        Account broken = AccountMother.account(2).build().withConfigError("model_mappings: not valid JSON");

        assertEquals(1, errors.observe(view(List.of(sound, broken), Map.of())).size());
        assertEquals(List.of(), errors.observe(view(List.of(sound, broken), Map.of())), "same state, no line");
        assertEquals(1, errors.count());

        List<String> changed = errors.observe(view(List.of(sound,
                AccountMother.account(2).build().withConfigError("platform: unknown platform 'x'")), Map.of()));
        assertEquals(1, changed.size());

        List<String> repaired = errors.observe(view(List.of(sound, AccountMother.account(2).build()), Map.of()));
        assertEquals(List.of("account 2 (acct-2) is readable again and back in service"),
                repaired);
        assertEquals(0, errors.count());
        assertEquals(List.of(), errors.observe(view(List.of(sound, AccountMother.account(2).build()), Map.of())));
    }

    @Test
    void keysWithAnUnreadablePolicyCountToo() {
        KeyEntry key = new KeyEntry(9, "alice", true, null, KeyPolicy.UNRESTRICTED, "policy: unreadable");
        errors.observe(view(List.of(AccountMother.account(1).build().withConfigError("weight: 0")), Map.of("h", key)));
        assertEquals(2, errors.count());
    }

    private static PoolSnapshot.View view(List<Account> accounts, Map<String, KeyEntry> keys) {
        return new PoolSnapshot.View(1, accounts, Map.of(), Map.of(), Map.of(), keys, Map.of(), Map.of());
    }
}
