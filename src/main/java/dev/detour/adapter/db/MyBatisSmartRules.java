package dev.detour.adapter.db;

import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SmartRules;
import java.util.List;

/** {@link SmartRules} in {@code model_prices} and {@code block_rules}, inside the caller's session. */
record MyBatisSmartRules(SmartMapper mapper) implements SmartRules {
    @Override
    public List<PriceEntry> prices() {
        return mapper.selectPrices();
    }

    @Override
    public void upsertPrice(PriceEntry price) {
        mapper.upsertPrice(price);
    }

    @Override
    public void deletePrice(String model) {
        mapper.deletePrice(model);
    }

    @Override
    public List<BlockRuleEntry> blocks() {
        return mapper.selectBlocks();
    }

    @Override
    public BlockRuleEntry block(long id) {
        return mapper.selectBlock(id);
    }

    @Override
    public long insertBlock(BlockRuleEntry rule) {
        mapper.insertBlock(rule);
        return mapper.selectLastInsertId();
    }

    @Override
    public void deleteBlock(long id) {
        mapper.deleteBlock(id);
    }
}
