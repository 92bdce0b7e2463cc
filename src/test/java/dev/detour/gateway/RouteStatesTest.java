package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.selection.ReasonCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RouteStatesTest {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "REJECTED_ADMIN_BLOCK, BLOCKED",
        "REJECTED_RATIO_CEILING, OVER_CEILING",
        "REJECTED_CONTRACT_MISMATCH, UNSUPPORTED",
        "REJECTED_COOLING, UNAVAILABLE",
        "REJECTED_MODEL_PAUSED, UNAVAILABLE",
        "REJECTED_MODEL_ERROR, UNAVAILABLE",
        "REJECTED_ACCOUNT_STATUS, UNAVAILABLE",
        "REJECTED_GROUP_HALTED, UNAVAILABLE",
    })
    void eachRejectionShowsAsTheKeyHoldersRouteState(ReasonCode reason, RouteStates.State state) {
        assertEquals(state, RouteStates.rejectedState(reason));
    }

    @ParameterizedTest
    @CsvSource({"REJECTED_MODEL_UNMAPPED", "REJECTED_GROUP_SCOPE", "REJECTED_MODEL_NOT_ALLOWED"})
    void routesTheKeyCannotSeeAtAllAreNotListed(ReasonCode reason) {
        assertEquals(null, RouteStates.rejectedState(reason));
    }
}
