package dev.detour.adapter.db;

import dev.detour.admin.port.AccountListItem;
import java.util.List;

/** Read-only queries behind the console's accounts page; SQL in ConsoleAccountMapper.xml. */
public interface ConsoleAccountMapper {
    List<AccountListItem> selectListItems();
}
