package dev.detour.adapter.db;

import dev.detour.admin.port.LoggedRequest;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface EventMapper {
    LoggedRequest selectByRequestId(String requestId);

    List<LoggedRequest> selectPage(EventQuery query);

    /** Retention: deletes at most {@code limit} events created before {@code cutoff}, oldest first. */
    int deleteOlderThan(@Param("cutoff") java.time.Instant cutoff, @Param("limit") int limit);
}
