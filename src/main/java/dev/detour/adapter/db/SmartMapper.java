package dev.detour.adapter.db;

import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.port.PriceEntry;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** Smart keys storage (S-3 prices, S-10 block rules, K-2 spend, P-10 response bindings). */
public interface SmartMapper {
    List<PriceEntry> selectPrices();

    int upsertPrice(PriceEntry row);

    int deletePrice(String model);

    List<BlockRuleEntry> selectBlocks();

    BlockRuleEntry selectBlock(long id);

    int insertBlock(BlockRuleEntry row);

    long selectLastInsertId();

    int deleteBlock(long id);

    List<KeySpentRow> selectSpent();

    int upsertResponseBinding(@Param("responseId") String responseId, @Param("accountId") long accountId,
            @Param("expiresAt") Instant expiresAt);

    Long selectResponseBinding(@Param("responseId") String responseId, @Param("now") Instant now);

    List<GroupNameRow> selectGroupNames();
}
