package dev.detour.gateway.port;

import dev.detour.core.selection.BlockRule;
import dev.detour.core.selection.ModelPrice;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Durable smart-key facts the gateway reads into memory (S-3 prices, S-10 blocks, K-2 spend, P-10 bindings). */
public interface SmartStore {
    Data load();

    /**
     * K-2 / G-3: every key's spend as written so far by every instance, read on its own every second
     * (no other change moves the pool revision when only spend grows).
     */
    default Map<Long, Long> loadSpent() {
        return load().spentMicros();
    }

    /** P-10: remembered asynchronously, never on the request's critical path. */
    void bindResponse(String responseId, long accountId, Instant expiresAt);

    /** P-10: the account a response id was created on (another instance may have written it), or null. */
    Long boundAccount(String responseId, Instant now);

    record Data(Map<String, ModelPrice> prices, List<BlockRule> blocks, Map<Long, Long> spentMicros,
            Map<Long, String> groupNames) {
        public static final Data EMPTY = new Data(Map.of(), List.of(), Map.of(), Map.of());
    }
}
