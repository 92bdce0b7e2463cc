package dev.detour.adapter.db;

import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** The failure engine's reads and writes: account failure columns and account_models rows. */
public interface PoolStateMapper {
    long selectRevision();

    int bumpRevision();

    Long lockAccount(long accountId);

    List<ModelStateRow> selectAllModelStates();

    List<ModelStateRow> selectModelStates(long accountId);

    List<String> selectServedModelKeys(@Param("accountId") long accountId, @Param("since") Instant since);

    /** C-3 for every account at once (the snapshot's served keys). */
    List<ServedModel> selectAllServedModelKeys(@Param("since") Instant since);

    /** D-1: 1 when the write id is new (the write goes ahead), 0 when it was applied before. */
    int insertWriteId(@Param("writeId") String writeId, @Param("at") Instant at);

    int deleteWriteIdsBefore(@Param("before") Instant before);

    /** D-1: the account row's last change (any column), to keep a late success from clearing newer failures. */
    Instant selectAccountUpdatedAt(long accountId);

    int updateAccountFailure(AccountFailureRow row);

    int upsertModelState(ModelStateRow row);

    int deleteModelState(@Param("accountId") long accountId, @Param("modelKey") String modelKey);
}
