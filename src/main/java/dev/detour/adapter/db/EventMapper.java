package dev.detour.adapter.db;

import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface EventMapper {
    int insertBatch(@Param("events") List<EventRow> events);

    int updateAccountTouches(AccountTouch touch);

    int upsertServedModels(@Param("models") List<ServedModel> models);

    EventRow selectByRequestId(String requestId);

    List<EventRow> selectPage(EventQuery query);

    /** Retention: deletes at most {@code limit} events created before {@code cutoff}, oldest first. */
    int deleteOlderThan(@Param("cutoff") java.time.Instant cutoff, @Param("limit") int limit);
}
