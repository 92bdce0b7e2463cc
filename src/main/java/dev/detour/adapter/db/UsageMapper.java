package dev.detour.adapter.db;

import dev.detour.admin.port.UsageStats;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** U-8 / U-9 usage over request_events in [since, until), optionally for one key. SQL in UsageMapper.xml. */
public interface UsageMapper {
    List<UsageStats.Slice> slices(@Param("since") Instant since, @Param("until") Instant until,
            @Param("keyId") Long keyId);

    List<UsageStats.Latency> latencies(@Param("column") String column, @Param("since") Instant since,
            @Param("until") Instant until, @Param("keyId") Long keyId);

    List<UsageStats.Bucket> series(@Param("since") Instant since, @Param("until") Instant until,
            @Param("step") long stepSeconds, @Param("keyId") Long keyId);
}
