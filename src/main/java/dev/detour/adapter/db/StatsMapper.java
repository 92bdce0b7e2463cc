package dev.detour.adapter.db;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Dashboard aggregates over request_events in [since, until), on the created_at index. SQL in StatsMapper.xml. */
public interface StatsMapper {
    List<StatsBucket> buckets(@Param("since") Instant since, @Param("until") Instant until,
            @Param("hourly") boolean hourly);

    StatsBucket totals(@Param("since") Instant since, @Param("until") Instant until);

    long countTimed(@Param("since") Instant since, @Param("until") Instant until, @Param("ttft") boolean ttft);

    /** The {@code offset}-th smallest latency (or TTFT) in the window, for percentiles. */
    Integer timedAt(@Param("since") Instant since, @Param("until") Instant until, @Param("ttft") boolean ttft,
            @Param("offset") long offset);

    List<FailingAccountRow> topFailing(@Param("since") Instant since, @Param("until") Instant until,
            @Param("limit") int limit);
}
