package dev.detour.core.selection;

import dev.detour.core.account.Account;
import java.time.Instant;

/**
 * One entry of a plan, in attempt order: the account, the upstream model name the request body's
 * {@code model} is rewritten to (P-2), the model key failures are charged to, the cooldown still
 * running (non-null only for the S-2 probe fallback) and why it got its place.
 */
public record Candidate(Account account, String upstreamModel, String modelKey, Instant coolingUntil, ReasonCode why) {

    public static Candidate of(Route route, Instant coolingUntil, ReasonCode why) {
        return new Candidate(route.account(), route.upstreamModel(), route.modelKey(), coolingUntil, why);
    }

    public long accountId() {
        return account.id();
    }

    public Route route() {
        return new Route(account, upstreamModel, modelKey);
    }
}
