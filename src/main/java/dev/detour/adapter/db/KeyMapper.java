package dev.detour.adapter.db;

import java.util.List;

public interface KeyMapper {
    int insert(KeyRow row);

    /** The id of this session's last insert (rows are records: MyBatis cannot write it back). */
    long selectLastInsertId();

    List<KeyRow> selectAll();

    KeyRow selectById(long id);

    int update(KeyRow row);

    int deleteById(long id);
}
