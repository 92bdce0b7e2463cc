package dev.detour.adapter.db;

import java.util.List;

/** SQL in AccountMapper.xml. */
public interface AccountMapper {
    /** Non-archived accounts, id order. */
    List<AccountRow> selectActive();

    AccountRow selectById(long id);

    Long selectIdByName(String name);

    /** Inserts with an empty placeholder secret; the caller seals the key under the new id next. */
    int insert(AccountConfigRow row);

    long selectLastInsertId();

    int updateSecret(AccountSecretRow row);

    /** Writes the config columns and bumps {@code accounts.revision}. */
    int updateConfig(AccountConfigRow row);

    int delete(long id);

    /** D-4: an operator's update repairs a stored status nobody can read: back to ok. */
    int updateUnreadableStatus(long id);
}
