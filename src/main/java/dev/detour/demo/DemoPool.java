package dev.detour.demo;

import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.GroupPatch;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import java.util.List;

/**
 * The sample pool the demo seeds: three groups and five accounts, one per {@link DemoBehaviour}.
 * Priorities make the first picks predictable (lower first, S-3): the budget-pool relay is tried
 * first for gpt-4o-mini, the rate-limited relay for gpt-4o and the flaky relay for deepseek-chat;
 * the two official accounts catch every failover.
 */
final class DemoPool {
    static final String KEY_NAME = "demo-key";
    static final String ACTOR = "demo";
    static final String PLATFORM = "openai-compatible";

    record Group(String name, long ratioPpm, String color) {
        GroupPatch patch() {
            return new GroupPatch(name, ratioPpm, color, null);
        }
    }

    record Account(String name, String group, DemoBehaviour behaviour, List<ModelMapping> mappings, int priority,
            FailurePolicy policy, String notes) {

        AccountPatch create(String baseUrl) {
            return new AccountPatch(name, group, null, PLATFORM, baseUrl, "sk-demo-" + behaviour.path() + "-0001",
                    ModelMappings.of(mappings), null, null, priority, null, true, null, null,
                    java.util.Optional.of(notes), policy, null, null, null, null);
        }

        /** Only the base URL: the demo upstream listens on a new port at every start. */
        static AccountPatch moveTo(String baseUrl) {
            return new AccountPatch(null, null, null, null, baseUrl, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, null, null);
        }
    }

    static final List<Group> GROUPS = List.of(
            new Group("demo-official", 1_000_000, "#2563eb"),
            new Group("demo-relays", 500_000, "#16a34a"),
            new Group("demo-budget", 300_000, "#9333ea"));

    private static final List<ModelMapping> OFFICIAL_MODELS = List.of(new ModelMapping("gpt-4o-mini", "gpt-4o-mini"),
            new ModelMapping("gpt-4o", "gpt-4o"), new ModelMapping("deepseek-chat", "deepseek-chat"));
    // C-1 with cooldown on (30 s): the rate-limited model cools for max(30 s, Retry-After) (C-4)
    private static final FailurePolicy COOLING = new FailurePolicy(0, 200, true, 30, 10, true, true, 1800);
    // one same-account retry first, so the request log shows a retry_same attempt
    private static final FailurePolicy RETRY_THEN_COOL = new FailurePolicy(1, 200, true, 30, 10, true, true, 1800);

    static final List<Account> ACCOUNTS = List.of(
            new Account("demo-official-a", "demo-official", DemoBehaviour.HEALTHY, OFFICIAL_MODELS, 10,
                    FailurePolicy.DEFAULTS, "Demo: a healthy upstream that answers at once."),
            new Account("demo-official-b", "demo-official", DemoBehaviour.SLOW, OFFICIAL_MODELS, 10,
                    FailurePolicy.DEFAULTS, "Demo: a healthy but slow upstream (0.7 s per answer)."),
            new Account("demo-relay-busy", "demo-relays", DemoBehaviour.RATE_LIMITED,
                    List.of(new ModelMapping("gpt-4o", DemoBehaviour.RATE_LIMITED_MODEL),
                            new ModelMapping("gpt-4o-mini", "gpt-4o-mini-2024-07-18")), 5, COOLING,
                    "Demo: answers 429 with Retry-After on " + DemoBehaviour.RATE_LIMITED_MODEL
                            + " only; the model cools, the account keeps serving gpt-4o-mini."),
            new Account("demo-relay-flaky", "demo-relays", DemoBehaviour.FLAKY,
                    List.of(new ModelMapping("deepseek-chat", "deepseek-v3")), 5,
                    RETRY_THEN_COOL,
                    "Demo: answers 502 to everything; its error count grows and it cools for 30 s each time."),
            new Account("demo-relay-pool", "demo-budget", DemoBehaviour.BUDGET_POOL,
                    List.of(new ModelMapping("gpt-4o-mini", "gpt-4o-mini")), 1, FailurePolicy.DEFAULTS,
                    "Demo: a relay whose shared budget pool is dry; the first answer flips it to error (F-5) "
                            + "and the panel shows the budget-pool reminder (F-8)."));

    private DemoPool() {
    }

    static boolean isDemoAccount(String name) {
        return ACCOUNTS.stream().anyMatch(a -> a.name().equals(name));
    }
}
