package dev.detour.adapter.db;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** SQL in RecoveryMapper.xml: the R-3 candidate query, guarded recovery writes, the R-5 lease, the probe switch. */
public interface RecoveryMapper {
    List<RecoveryCandidateRow> selectCandidates();

    /** Writes status and failure columns unless a person's status (paused) or a void credential (revoked) is there. */
    int updateRecoveredAccount(AccountFailureRow row);

    int insertLeaseIgnore(LeaseRow row);

    LeaseRow selectLeaseForUpdate(String name);

    int updateLease(LeaseRow row);

    int deleteLease(@Param("name") String name, @Param("holder") String holder);

    String selectLeaseHolder(@Param("name") String name, @Param("now") Instant now);

    String selectSetting(String name);

    int upsertSetting(@Param("name") String name, @Param("value") String value, @Param("now") Instant now);
}
