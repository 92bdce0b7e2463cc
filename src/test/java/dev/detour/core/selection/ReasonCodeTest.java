package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC §5: the reason codes are a stable wire vocabulary. */
class ReasonCodeTest {

    @Test
    void everySpecReasonCodeExistsInItsWireForm() {
        List<String> spec = List.of("selected_priority", "selected_weighted", "selected_lowest_price",
                "selected_most_stable", "selected_fastest", "selected_balanced", "selected_manual_order",
                "kept_session_affinity", "kept_cache_affinity", "probe_fallback_soonest_recovery",
                "capacity_overflow_to_next", "rejected_model_not_allowed", "rejected_group_scope",
                "rejected_ratio_ceiling", "rejected_contract_mismatch", "rejected_model_unmapped",
                "rejected_model_paused", "rejected_model_error", "rejected_cooling", "rejected_account_status",
                "rejected_admin_block", "rejected_group_halted", "retry_same_account", "switched_after_failure",
                "retry_stopped_after_commit", "returned_client_error", "state_bound_unknown",
                "rejected_bridge_unsupported");

        assertEquals(spec, Arrays.stream(ReasonCode.values()).map(ReasonCode::wire).toList());
        spec.forEach(wire -> assertEquals(wire, ReasonCode.fromWire(wire).wire()));
    }

    @Test
    void anUnknownStoredCodeReadsAsNull() {
        assertNull(ReasonCode.fromWire("selected_by_magic"));
    }

    @Test
    void poolErrorCodesCarryTheirEnvelopeCodeAndStatus() {
        // P-8' (revised from a blanket 502): unmatched 404, unavailable/empty 503, upstream-stated windows 429
        assertEquals(List.of("route_pool.no_accounts:503", "route_pool.model_unmatched:404",
                        "route_pool.model_unavailable:503", "route_pool.no_eligible_route:502",
                        "route_pool.halted:503", "route_pool.all_failed:502", "route_pool.at_capacity:503",
                        "route_pool.rate_limited:429", "key.model_not_allowed:403"),
                Arrays.stream(PoolErrorCode.values()).map(c -> c.code() + ":" + c.httpStatus()).toList());
    }
}
