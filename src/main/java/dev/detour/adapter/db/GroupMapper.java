package dev.detour.adapter.db;

import dev.detour.admin.port.AccountGroup;
import java.util.List;

/** SQL in GroupMapper.xml. */
public interface GroupMapper {
    List<AccountGroup> selectAll();

    AccountGroup selectById(long id);

    AccountGroup selectByName(String name);

    int insert(AccountGroup row);

    long selectLastInsertId();

    int update(AccountGroup row);

    int delete(long id);

    long countAccounts(long groupId);
}
