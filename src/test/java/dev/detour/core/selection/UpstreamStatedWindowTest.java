package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static dev.detour.testkit.AccountMother.coolingModel;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * SPEC §12 C-4': when every candidate is inside a window its upstream stated on a 429, nobody is called
 * (429 + Retry-After); the S-2 probe fallback applies to Detour's own cooldown windows only.
 */
class UpstreamStatedWindowTest {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final SelectionRequest SOL = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, "gpt-5.6-sol");

    static Plan plan(List<Account> accounts, List<ModelState> states) {
        return new SelectionPipeline().plan(SOL, accounts, ModelStateKey.index(states), NOW, new SeededRandom(7));
    }

    static Account sol(long id) {
        return account(id).maps("gpt-5.6-sol", "upstream-sol").build();
    }

    /** A row cooling until {@code until} because its upstream said so on a 429 (stated until then). */
    static ModelState stated(long accountId, Instant until) {
        ModelState c = coolingModel(accountId, "upstream-sol", until);
        return new ModelState(c.accountId(), c.modelKey(), ModelStatus.OK, 1, until, until, 0, null,
                "upstream_status", "upstream returned 429", null, c.createdAt(), c.updatedAt(), until);
    }

    @Test
    void everyCandidateInsideAStatedWindowIsRateLimitedWithTheSoonestEnd() {
        Plan plan = plan(List.of(sol(1), sol(2)), List.of(stated(1, NOW.plusSeconds(20)), stated(2, NOW.plusSeconds(8))));

        assertEquals(PoolErrorCode.RATE_LIMITED, plan.error());
        assertEquals(429, plan.error().httpStatus());
        assertEquals(NOW.plusSeconds(8), plan.retryAfter());
        assertTrue(plan.candidates().isEmpty()); // nobody is called
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(1));
        assertEquals(ReasonCode.REJECTED_COOLING, plan.rejectionOf(2));
    }

    @Test
    void aRouteInDetoursOwnWindowIsStillProbedWhenTheOthersAreStated() {
        Plan plan = plan(List.of(sol(1), sol(2)),
                List.of(stated(1, NOW.plusSeconds(5)), coolingModel(2, "upstream-sol", NOW.plusSeconds(30))));

        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
    }

    @Test
    void aStatedWindowThatEndedLeavesOnlyDetoursOwnWindowWhichIsProbed() {
        // a 429 said 5 s, the policy window is 10 s: after 5 s the route is probe-able again
        ModelState row = stated(1, NOW.minusSeconds(1));
        ModelState cooling = new ModelState(row.accountId(), row.modelKey(), row.status(), 1, NOW.plusSeconds(4), null,
                0, null, row.lastFailureKind(), row.lastFailureMessage(), null, row.createdAt(), row.updatedAt(),
                NOW.minusSeconds(1));

        Plan plan = plan(List.of(sol(1)), List.of(cooling));

        assertEquals(ReasonCode.PROBE_FALLBACK_SOONEST_RECOVERY, plan.reason());
    }

    @Test
    void anEligibleRouteIsChosenWhateverTheOthersStated() {
        Plan plan = plan(List.of(sol(1), sol(2)), List.of(stated(1, NOW.plusSeconds(20))));

        assertEquals(List.of(2L), plan.candidates().stream().map(Candidate::accountId).toList());
    }
}
