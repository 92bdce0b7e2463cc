package dev.detour.core.selection;

import dev.detour.core.ValidationException;
import java.time.Instant;
import java.util.Objects;

/**
 * S-10: an operator's block. {@code value} is the account id or group id (decimal), the endpoint
 * family wire name ({@code chat_completions}) or a model name — matched against the requested
 * name, the upstream name and the model key alike. A rule with {@code expiresAt} stops applying at
 * that instant (ignored, not "recovered"); without one it holds until an operator removes it.
 */
public record BlockRule(long id, BlockScope scope, String value, String reason, String operator, Instant expiresAt) {

    public BlockRule {
        Objects.requireNonNull(scope, "scope");
        if (value == null || value.isBlank()) {
            throw new ValidationException("validation.block_rule.value", "value", "a block rule needs a value");
        }
        value = value.trim();
    }

    public static BlockRule account(long accountId) {
        return new BlockRule(0, BlockScope.ACCOUNT, Long.toString(accountId), null, null, null);
    }

    public static BlockRule group(long groupId) {
        return new BlockRule(0, BlockScope.GROUP, Long.toString(groupId), null, null, null);
    }

    public BlockRule expiringAt(Instant at) {
        return new BlockRule(id, scope, value, reason, operator, at);
    }

    public boolean activeAt(Instant now) {
        return expiresAt == null || expiresAt.isAfter(now);
    }

    /** Whether this rule covers {@code route} for a request of {@code request} (expiry not considered). */
    public boolean blocks(Route route, SelectionRequest request) {
        return switch (scope) {
            case ACCOUNT -> value.equals(Long.toString(route.account().id()));
            case GROUP -> value.equals(Long.toString(route.account().groupId()));
            case ENDPOINT_FAMILY -> value.equalsIgnoreCase(request.family().wire());
            case MODEL -> value.equals(request.requestedModel()) || value.equals(route.upstreamModel())
                    || value.equals(route.modelKey());
        };
    }
}
