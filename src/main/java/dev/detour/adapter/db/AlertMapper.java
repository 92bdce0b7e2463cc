package dev.detour.adapter.db;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** W-1 alert_channels and alert_deliveries; SQL in AlertMapper.xml. */
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
}
