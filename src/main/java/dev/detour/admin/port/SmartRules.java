package dev.detour.admin.port;

import java.util.List;

/** Smart keys' operator-set rules: S-3 model base prices and S-10 block rules. */
public interface SmartRules {
    /** Model order. */
    List<PriceEntry> prices();

    void upsertPrice(PriceEntry price);

    void deletePrice(String model);

    /** Id order. */
    List<BlockRuleEntry> blocks();

    /** Null when no such rule. */
    BlockRuleEntry block(long id);

    /** The new rule's id. */
    long insertBlock(BlockRuleEntry rule);

    void deleteBlock(long id);
}
