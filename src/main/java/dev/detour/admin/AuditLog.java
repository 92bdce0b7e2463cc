package dev.detour.admin;

import dev.detour.admin.port.AuditDocuments;
import dev.detour.admin.port.AuditEntry;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.Transactions;
import java.time.Clock;
import java.util.List;

/**
 * U-6: who changed what, when, with before/after JSON. Callers pass JSON already stripped of
 * secrets (account JSON carries api_key_hint, never the key); written in the change's transaction.
 */
public final class AuditLog {
    public static final int MAX_LIMIT = 500;
    private final Transactions transactions;
    private final AuditDocuments documents;
    private final Clock clock;

    public AuditLog(Transactions transactions, AuditDocuments documents, Clock clock) {
        this.transactions = transactions;
        this.documents = documents;
        this.clock = clock;
    }

    /** How a changed thing is written into its audit row. */
    AuditDocuments documents() {
        return documents;
    }

    void record(Changes changes, String actor, String action, String targetType, long targetId,
            String beforeJson, String afterJson) {
        changes.audit(new AuditEntry(0, actor, action, targetType, Long.toString(targetId), beforeJson, afterJson,
                clock.instant()));
    }

    /** Newest first; limit clamped to 1..500. */
    public List<AuditEntry> recent(int limit) {
        int clamped = Math.max(1, Math.min(MAX_LIMIT, limit));
        return transactions.read(c -> c.recentAudit(clamped));
    }
}
