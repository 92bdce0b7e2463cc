package dev.detour.adapter.db;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** W-1 alert_channels, alert_deliveries, alert_outbox and alert_suppressions; SQL in AlertMapper.xml. */
public interface AlertMapper {
    List<AlertChannelRow> selectChannels();

    AlertChannelRow selectChannel(@Param("id") long id);

    int insertChannel(AlertChannelRow row);

    int updateChannel(AlertChannelRow row);

    int deleteChannel(@Param("id") long id);

    long lastInsertId();

    int insertDelivery(AlertDeliveryRow row);

    int updateDelivery(AlertDeliveryRow row);

    List<AlertDeliveryRow> selectDueDeliveries(@Param("now") Instant now, @Param("limit") int limit);

    List<AlertDeliveryRow> selectDeliveries(@Param("offset") int offset, @Param("limit") int limit);

    long countDeliveries();

    int claimDelivery(@Param("id") long id, @Param("due") Instant due, @Param("until") Instant until);

    int insertRecorded(AlertOutboxRow row);

    List<Long> selectRecordedIds(@Param("limit") int limit);

    List<AlertOutboxRow> selectRecordedForUpdate(@Param("ids") List<Long> ids);

    int deleteRecorded(@Param("id") long id);

    int insertSuppressionIgnore(@Param("channelId") long channelId, @Param("event") String event,
            @Param("object") String object);

    Instant selectSuppressionForUpdate(@Param("channelId") long channelId, @Param("event") String event,
            @Param("object") String object);

    int updateSuppression(@Param("channelId") long channelId, @Param("event") String event,
            @Param("object") String object, @Param("sentAt") Instant sentAt);
}
