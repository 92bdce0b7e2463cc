package dev.detour.admin;

import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.port.SmartRules;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.BlockScope;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * S-10 block rules: by account, model, endpoint family or group, with reason, operator and an
 * optional expiry. Never auto-recovered: only an operator's delete (or the expiry) lifts one.
 */
public final class BlockAdmin {
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;

    public BlockAdmin(Transactions transactions, AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
    }

    public List<BlockRuleEntry> list() {
        return transactions.read(c -> c.smartRules().blocks());
    }

    public BlockRuleEntry create(String actor, BlockDraft draft) {
        BlockScope scope = BlockScope.fromWire(draft.scope());
        String value = draft.value() == null ? "" : draft.value().trim();
        if (value.isEmpty() || value.length() > 191) {
            throw new ValidationException("validation.block_rule.value", "value", "value must be 1–191 characters");
        }
        checkValue(scope, value);
        String reason = draft.reason();
        if (reason != null && reason.length() > 512) {
            throw new ValidationException("validation.block_rule.reason", "reason", "reason is at most 512 characters");
        }
        Instant expires = expiry(draft.expiresAt());
        Instant now = clock.instant();
        return transactions.inTransaction(c -> {
            SmartRules rules = c.smartRules();
            BlockRuleEntry created = rules.block(rules.insertBlock(
                    new BlockRuleEntry(null, scope.wire(), value, reason, actor, expires, now)));
            audit.record(c, actor, "block.create", "block", created.id(), null, audit.documents().block(created));
            c.bumpPoolRevision();
            return created;
        });
    }

    public void delete(String actor, long id) {
        transactions.inTransaction(c -> {
            SmartRules rules = c.smartRules();
            BlockRuleEntry before = rules.block(id);
            if (before == null) {
                throw new NotFoundException("block rule " + id + " does not exist");
            }
            rules.deleteBlock(id);
            audit.record(c, actor, "block.delete", "block", id, audit.documents().block(before), null);
            c.bumpPoolRevision();
            return null;
        });
    }

    private static void checkValue(BlockScope scope, String value) {
        switch (scope) {
            case ACCOUNT, GROUP -> {
                if (!value.matches("[1-9][0-9]{0,18}")) {
                    throw new ValidationException("validation.block_rule.value", "value",
                            scope.wire() + " blocks take the " + scope.wire() + " id");
                }
            }
            case ENDPOINT_FAMILY -> {
                try {
                    EndpointFamily.fromWire(value);
                } catch (RuntimeException e) {
                    throw new ValidationException("validation.block_rule.value", "value",
                            "unknown endpoint family: " + value);
                }
            }
            default -> {
            }
        }
    }

    private static Instant expiry(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new ValidationException("validation.block_rule.expires_at", "expires_at",
                    "expires_at must be an ISO-8601 instant such as 2027-01-01T00:00:00Z");
        }
    }
}
