package dev.detour.adapter.db;

import dev.detour.gateway.port.SessionBinding;
import java.time.Instant;
import org.apache.ibatis.annotations.Param;

/** S-6 session_bindings and S-9 group halt columns; SQL in LoadMapper.xml. */
public interface LoadMapper {
    SessionBinding selectBinding(@Param("keyId") long keyId, @Param("sessionHash") String sessionHash,
            @Param("model") String model);

    int upsertBinding(SessionBinding binding);

    int deleteBinding(@Param("keyId") long keyId, @Param("sessionHash") String sessionHash,
            @Param("model") String model, @Param("accountId") long accountId);

    int deleteExpiredBindings(@Param("now") Instant now);

    Instant selectHaltedUntilForUpdate(@Param("id") long id);

    int updateGroupHalt(@Param("id") long id, @Param("haltedUntil") Instant haltedUntil,
            @Param("haltStreak") int haltStreak, @Param("haltReason") String haltReason,
            @Param("updatedAt") Instant updatedAt);
}
