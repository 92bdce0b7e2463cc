package dev.detour.adapter.db;

import dev.detour.admin.port.AccountListItem;
import dev.detour.admin.port.AccountsPageSource;
import java.util.List;

/** The accounts page straight from the accounts table (read-only), until the live pool snapshot serves it. */
public final class MyBatisAccountsPageSource implements AccountsPageSource {
    private final Database database;

    public MyBatisAccountsPageSource(Database database) {
        this.database = database;
    }

    @Override
    public List<AccountListItem> list() {
        return database.read(s -> s.getMapper(ConsoleAccountMapper.class).selectListItems());
    }
}
