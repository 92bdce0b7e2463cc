package dev.detour.testkit;

import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.AnthropicBetaPolicy;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelMappings;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.account.Platform;
import dev.detour.core.account.Protocols;
import dev.detour.core.account.RecoveryRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Test accounts with sensible defaults: an enabled, healthy, pass-through openai-compatible
 * account in group 1, priority 0, weight 1. Change only what a test is about:
 * {@code AccountMother.account(7).maps("gpt-5.6-sol", "upstream-sol").priority(1).build()}.
 */
public final class AccountMother {
    private long id;
    private String name;
    private long groupId = 1;
    private Platform platform = Platform.OPENAI_COMPATIBLE;
    private String baseUrl = "https://relay.example";
    private final List<ModelMapping> mappings = new ArrayList<>();
    private Set<EndpointFamily> families;
    private Set<EndpointFamily> protocols;
    private int priority;
    private int weight = 1;
    private boolean enabled = true;
    private boolean archived;
    private AccountStatus status = AccountStatus.OK;
    private Long quotaRemaining;
    private int maxInFlight;
    private FailurePolicy failurePolicy = FailurePolicy.SEED_DEFAULTS;
    private RecoveryRule recovery = RecoveryRule.OFF;
    private AccountFailureState failure = AccountFailureState.CLEAN;
    private long successCount;
    private long errorCount;
    private Instant lastUsedAt;
    private AnthropicBetaPolicy anthropicBeta = AnthropicBetaPolicy.DEFAULTS;

    private AccountMother(long id) {
        this.id = id;
        this.name = "acct-" + id;
    }

    public static AccountMother account(long id) {
        return new AccountMother(id);
    }

    public AccountMother name(String value) {
        name = value;
        return this;
    }

    public AccountMother group(long value) {
        groupId = value;
        return this;
    }

    public AccountMother platform(Platform value) {
        platform = value;
        return this;
    }

    public AccountMother baseUrl(String value) {
        baseUrl = value;
        return this;
    }

    /** Adds one mapping {@code from → to}; {@code maps("*", "*")} is the pass-through catch-all. */
    public AccountMother maps(String from, String to) {
        mappings.add(new ModelMapping(from, to));
        return this;
    }

    /** Adds every mapping of an already built set. */
    public AccountMother maps(ModelMappings value) {
        mappings.addAll(value.entries());
        return this;
    }

    /** Adds identity mappings: the account serves exactly these names under their own names. */
    public AccountMother serves(String... models) {
        for (String model : models) {
            maps(model, model);
        }
        return this;
    }

    /** B-1: the client protocols the account serves natively (unset: as the account row would default them). */
    public AccountMother protocols(EndpointFamily... values) {
        protocols = EnumSet.of(values[0], values);
        return this;
    }

    public AccountMother families(EndpointFamily... values) {
        families = values.length == 0 ? EnumSet.noneOf(EndpointFamily.class) : EnumSet.of(values[0], values);
        return this;
    }

    public AccountMother priority(int value) {
        priority = value;
        return this;
    }

    public AccountMother weight(int value) {
        weight = value;
        return this;
    }

    public AccountMother disabled() {
        enabled = false;
        return this;
    }

    public AccountMother archived() {
        archived = true;
        return this;
    }

    public AccountMother status(AccountStatus value) {
        status = value;
        return this;
    }

    public AccountMother quota(Long value) {
        quotaRemaining = value;
        return this;
    }

    public AccountMother maxInFlight(int value) {
        maxInFlight = value;
        return this;
    }

    public AccountMother failurePolicy(FailurePolicy value) {
        failurePolicy = value;
        return this;
    }

    public AccountMother recovery(RecoveryRule value) {
        recovery = value;
        return this;
    }

    public AccountMother failure(AccountFailureState value) {
        failure = value;
        return this;
    }

    /** An account-level cooldown: next_retry_at and cooldown_until written together (C-2). */
    public AccountMother coolingUntil(Instant until) {
        failure = new AccountFailureState(1, until, until, "transport", null, null, 0, null, 0, 0, null, 0);
        return this;
    }

    public AccountMother breakerOpenUntil(Instant until) {
        failure = new AccountFailureState(0, null, null, null, null, null, 0, null, 3, 1, until, 0);
        return this;
    }

    public AccountMother counts(long successes, long errors) {
        successCount = successes;
        errorCount = errors;
        return this;
    }

    public AccountMother lastUsedAt(Instant value) {
        lastUsedAt = value;
        return this;
    }

    /** B-5: what the account's upstream gets of the client's anthropic-beta header. */
    public AccountMother anthropicBeta(String mode, String... flags) {
        anthropicBeta = new AnthropicBetaPolicy(mode, List.of(flags));
        return this;
    }

    public Account build() {
        Set<EndpointFamily> served = families != null ? families : platform.defaultFamilies();
        return new Account(id, name, groupId, platform, baseUrl, ModelMappings.of(mappings), served, priority, weight,
                enabled, archived, status, quotaRemaining, maxInFlight, failurePolicy, recovery, failure, successCount,
                errorCount, lastUsedAt, BreakerPolicy.DEFAULTS, BackoffPolicy.DEFAULTS, null,
                protocols != null ? protocols : Protocols.defaults(platform, families), anthropicBeta);
    }

    /** A model row with the given status and cooldown (null = none), as the account-models table holds it. */
    public static ModelState modelState(long accountId, String modelKey, ModelStatus status, Instant cooldownUntil) {
        Instant created = Instant.parse("2026-01-01T00:00:00Z");
        return new ModelState(accountId, modelKey, status, cooldownUntil == null ? 0 : 1, cooldownUntil, null, 0, null,
                cooldownUntil == null ? null : "upstream_status", null, null, created, created);
    }

    public static ModelState coolingModel(long accountId, String modelKey, Instant until) {
        return modelState(accountId, modelKey, ModelStatus.OK, until);
    }
}
