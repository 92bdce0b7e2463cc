package dev.detour.adapter.db;

import java.util.Optional;

/** Console users (U-1); SQL in AdminUserMapper.xml. */
public interface AdminUserMapper {
    long countAll();

    Optional<AdminUserRow> selectByUsername(String username);

    /** Inserts unless the username exists (another instance may create the first admin at the same time). */
    int insertIgnore(AdminUserRow row);

    int updateLastLoginAt(AdminUserRow row);
}
