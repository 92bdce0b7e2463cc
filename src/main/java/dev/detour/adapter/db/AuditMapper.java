package dev.detour.adapter.db;

import java.util.List;

/** SQL in AuditMapper.xml. */
public interface AuditMapper {
    int insert(AuditRow row);

    /** Newest first, at most {@code limit} rows. */
    List<AuditRow> selectRecent(int limit);
}
