package dev.detour.adapter.db;

import java.util.List;

/** SQL in GroupMapper.xml. */
public interface GroupMapper {
    List<GroupRow> selectAll();

    GroupRow selectById(long id);

    GroupRow selectByName(String name);

    int insert(GroupRow row);

    long selectLastInsertId();

    int update(GroupRow row);

    int delete(long id);

    long countAccounts(long groupId);
}
