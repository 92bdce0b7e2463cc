package dev.detour.gateway.admission;

import dev.detour.core.selection.BlockRule;
import dev.detour.core.selection.ModelPrice;
import dev.detour.core.selection.RankingInputs;
import dev.detour.core.selection.RequestCost;
import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.live.QuickReads;
import dev.detour.gateway.live.RouteStatsBook;
import dev.detour.gateway.port.SmartStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The smart-key facts selection and settlement need, held in memory (N-2): model prices, block
 * rules, group names, each key's running spend (K-2), response bindings (P-10) and the
 * real-traffic route stats (S-3). Reloaded with the pool snapshot.
 */
public final class SmartKeyFacts {
    /** P-10: a response id stays bound to its account for 24 h. */
    public static final Duration BINDING_TTL = Duration.ofHours(24);
    private static final int MAX_LOCAL_BINDINGS = 100_000;
    private final SmartStore store;
    private final KeyLimiter limits;
    private final RouteStatsBook stats = new RouteStatsBook();
    private final Map<Long, AtomicLong> spent = new ConcurrentHashMap<>();
    private final Map<String, Binding> bindings = new ConcurrentHashMap<>();
    private volatile SmartStore.Data data = SmartStore.Data.EMPTY;
    private volatile QuickReads reads = QuickReads.direct();

    private record Binding(long accountId, Instant expiresAt) {
    }

    public SmartKeyFacts(SmartStore store) {
        this(store, new KeyLimiter(java.time.Clock.systemUTC()));
    }

    /** {@code limits}: L-1's per-key counts, fed here with each settled request's tokens and cost. */
    public SmartKeyFacts(SmartStore store, KeyLimiter limits) {
        this.store = store;
        this.limits = limits;
    }

    public KeyLimiter limits() {
        return limits;
    }

    /** No store: nothing priced, blocked or bound (tests of the bare gateway). */
    public static SmartKeyFacts none() {
        return new SmartKeyFacts(new SmartStore() {
            @Override
            public Data load() {
                return Data.EMPTY;
            }

            @Override
            public void bindResponse(String responseId, long accountId, Instant expiresAt) {
            }

            @Override
            public Long boundAccount(String responseId, Instant now) {
                return null;
            }
        });
    }

    /** D-1: a response binding this instance does not hold is read within {@link QuickReads#DEADLINE}. */
    public void readThrough(QuickReads quickReads) {
        this.reads = quickReads;
    }

    public void reload() {
        SmartStore.Data loaded = store.load();
        takeSpent(loaded.spentMicros());
        data = loaded;
    }

    /**
     * G-3: the spend other instances wrote, every second, so a key's limit is counted once for the
     * cluster; between two reads it may be passed by what the other instances charged meanwhile.
     */
    public void refreshSpend() {
        takeSpent(store.loadSpent());
    }

    /** This instance's own charges may not be written yet: never move a running total backwards. */
    private void takeSpent(Map<Long, Long> stored) {
        stored.forEach((keyId, micros) -> spent.computeIfAbsent(keyId, k -> new AtomicLong())
                .accumulateAndGet(micros, Math::max));
    }

    public RouteStatsBook stats() {
        return stats;
    }

    public List<BlockRule> blockRules() {
        return data.blocks();
    }

    public Map<String, ModelPrice> prices() {
        return data.prices();
    }

    public String groupName(long groupId) {
        return data.groupNames().getOrDefault(groupId, "#" + groupId);
    }

    /** S-3: prices and real-traffic stats for one selection (the stats read per route, as the ranking asks). */
    public RankingInputs rankingInputs() {
        return RankingInputs.NONE.withPrices(data.prices()).withRouteStatsSource(stats.view());
    }

    public long spentMicros(long keyId) {
        AtomicLong total = spent.get(keyId);
        return total == null ? 0 : total.get();
    }

    /** The cost of a settled request (B-4: tokens × price, per class, × group ratio), added to the key's spend. */
    public long settle(Long keyId, String modelKey, String requestedModel, long groupRatioPpm, TokenUsage usage) {
        ModelPrice price = modelKey == null ? null : data.prices().get(modelKey);
        if (price == null && requestedModel != null) {
            price = data.prices().get(requestedModel);
        }
        long cost = RequestCost.micros(usage, price, groupRatioPpm);
        if (keyId != null && cost > 0) {
            spent.computeIfAbsent(keyId, k -> new AtomicLong()).addAndGet(cost);
        }
        if (keyId != null && usage != null) {
            limits.used(keyId, usage.promptTotal() + usage.output(), Math.max(0, cost)); // L-1: every prompt token
        }
        return cost;
    }

    public void bindResponse(String responseId, long accountId, Instant now) {
        Instant expiresAt = now.plus(BINDING_TTL);
        if (bindings.size() >= MAX_LOCAL_BINDINGS) {
            // the database keeps them all; memory only keeps the live ones
            bindings.values().removeIf(b -> !b.expiresAt().isAfter(now));
        }
        bindings.put(responseId, new Binding(accountId, expiresAt));
        store.bindResponse(responseId, accountId, expiresAt);
    }

    public Long boundAccount(String responseId, Instant now) {
        Binding binding = bindings.get(responseId);
        if (binding != null) {
            return binding.expiresAt().isAfter(now) ? binding.accountId() : null;
        }
        return reads.read(() -> store.boundAccount(responseId, now), null);
    }
}
