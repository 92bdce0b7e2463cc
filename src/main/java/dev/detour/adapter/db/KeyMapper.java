package dev.detour.adapter.db;

import dev.detour.admin.port.DetourKey;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

public interface KeyMapper {
    int insert(DetourKey row);

    /** The id of this session's last insert (rows are records: MyBatis cannot write it back). */
    long selectLastInsertId();

    List<DetourKey> selectAll();

    DetourKey selectById(long id);

    int update(DetourKey row);

    int updateSecret(@Param("id") long id, @Param("keyHash") String keyHash, @Param("keyHint") String keyHint,
            @Param("updatedAt") Instant updatedAt);

    int deleteById(long id);
}
