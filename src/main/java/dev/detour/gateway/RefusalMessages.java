package dev.detour.gateway;

import dev.detour.core.selection.Plan;
import dev.detour.core.selection.PoolErrorCode;
import java.util.List;

/** The words of a routing refusal (P-8): what the pool lacks, or which of the key's own rules removed every route (K-2). */
final class RefusalMessages {
    private RefusalMessages() {
    }

    static String of(PoolErrorCode error, String model, Plan plan) {
        return switch (error) {
            case NO_ACCOUNTS -> "no enabled account is in the pool";
            case MODEL_UNMATCHED -> "no account maps model " + model;
            case MODEL_UNAVAILABLE -> "every account serving " + model + " has it paused or in error";
            case NO_ELIGIBLE_ROUTE -> noEligibleRoute(model, plan);
            case HALTED -> "every group serving " + model + " is halted";
            case RATE_LIMITED -> "every route serving " + model + " is rate-limited by its upstream until the time"
                    + " it stated; no upstream was called";
            default -> error.code();
        };
    }

    /** K-2: the message names the rejection reasons of the key's own policy. */
    private static String noEligibleRoute(String model, Plan plan) {
        List<String> why = plan.policyRejectionReasons().stream().map(r -> switch (r) {
            case REJECTED_RATIO_CEILING -> "above this key's price ceiling (rejected_ratio_ceiling)";
            case REJECTED_ADMIN_BLOCK -> "blocked by the site operator (rejected_admin_block)";
            case REJECTED_GROUP_SCOPE -> "outside this key's groups (rejected_group_scope)";
            default -> r.wire();
        }).toList();
        return "this key's policy leaves no route for " + model + ": every route is " + String.join(" or ", why);
    }
}
