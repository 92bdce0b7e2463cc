package dev.detour.adapter.db;

import dev.detour.admin.port.AuditEntry;
import java.util.List;

/** SQL in AuditMapper.xml. */
public interface AuditMapper {
    int insert(AuditEntry row);

    /** Newest first, at most {@code limit} rows. */
    List<AuditEntry> selectRecent(int limit);
}
