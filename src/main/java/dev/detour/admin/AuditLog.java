package dev.detour.admin;

import dev.detour.adapter.db.AuditMapper;
import dev.detour.adapter.db.Database;
import java.time.Clock;
import java.util.List;
import org.apache.ibatis.session.SqlSession;

/**
 * U-6: who changed what, when, with before/after JSON. Callers pass JSON already stripped of
 * secrets (account JSON carries api_key_hint, never the key); written in the change's transaction.
 */
public final class AuditLog {
    public static final int MAX_LIMIT = 500;
    private final Database database;
    private final Clock clock;

    public AuditLog(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    void record(SqlSession session, String actor, String action, String targetType, long targetId,
            String beforeJson, String afterJson) {
        session.getMapper(AuditMapper.class).insert(entry(actor, action, targetType, targetId, beforeJson, afterJson));
    }

    void record(Changes changes, String actor, String action, String targetType, long targetId,
            String beforeJson, String afterJson) {
        changes.audit(entry(actor, action, targetType, targetId, beforeJson, afterJson));
    }

    private AuditEntry entry(String actor, String action, String targetType, long targetId, String beforeJson,
            String afterJson) {
        return new AuditEntry(0, actor, action, targetType, Long.toString(targetId), beforeJson, afterJson,
                clock.instant());
    }

    /** Newest first; limit clamped to 1..500. */
    public List<AuditEntry> recent(int limit) {
        int clamped = Math.max(1, Math.min(MAX_LIMIT, limit));
        return database.read(s -> s.getMapper(AuditMapper.class).selectRecent(clamped));
    }
}
