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

    int updateAccountFailure(AccountFailureRow row);

    int upsertModelState(ModelStateRow row);

    int deleteModelState(@Param("accountId") long accountId, @Param("modelKey") String modelKey);
}
