package dev.detour.admin.port;

import java.util.List;

/**
 * U-6: what the audit log stores as a change's before and after — the API's document of the thing,
 * never a secret (an account carries its key hint only). Each gives null for null (nothing before a
 * create, nothing after a delete).
 */
public interface AuditDocuments {
    String group(AccountGroup group);

    String account(StoredAccount account);

    String key(DetourKey key);

    String prices(List<PriceEntry> prices);

    String block(BlockRuleEntry block);

    String settings(SettingValues settings);
}
