package dev.detour.core.cooldown;

import dev.detour.core.failure.Failure;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * S-9 (seed: provider-failover), for a group with halts on, after a request in which every
 * attempt failed: any billing (402 / F-5 whitelist) or unreachable (refused / unknown host)
 * failure of the group's accounts → halt 60 s doubling per consecutive halt up to 5 min (the
 * streak is kept until a success in the group clears it); otherwise, when every failure of the
 * group was a rate limit → halt 30 s (streak untouched). Anything else → no halt.
 */
public final class GroupHaltRules {
    public static final Duration RATE_LIMIT_HALT = Duration.ofSeconds(30);
    public static final Duration FIRST_HARD_HALT = Duration.ofSeconds(60);
    public static final Duration MAX_HARD_HALT = Duration.ofMinutes(5);

    public record Halt(Instant until, int streak, String reason) {
    }

    private GroupHaltRules() {
    }

    /** @param failures this group's failures in the request; {@code streak} the group's current one */
    public static Halt afterFailedRequest(List<Failure> failures, int streak, Instant now) {
        if (failures.isEmpty()) {
            return null;
        }
        for (Failure f : failures) {
            if (f.billing() || f.unreachable()) {
                return new Halt(now.plus(hardHalt(streak + 1)), streak + 1, f.billing() ? "billing" : "unreachable");
            }
        }
        boolean allRateLimited = failures.stream().allMatch(Failure::rateLimited);
        return allRateLimited ? new Halt(now.plus(RATE_LIMIT_HALT), streak, "rate_limit") : null;
    }

    /** 60 s × 2^(streak−1), capped at 5 min. */
    public static Duration hardHalt(int streak) {
        Duration d = FIRST_HARD_HALT;
        for (int i = 1; i < streak && d.compareTo(MAX_HARD_HALT) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(MAX_HARD_HALT) > 0 ? MAX_HARD_HALT : d;
    }
}
