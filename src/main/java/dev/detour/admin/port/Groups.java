package dev.detour.admin.port;

import java.util.List;

/** The account groups (S-9). */
public interface Groups {
    /** Id order. */
    List<AccountGroup> all();

    /** Null when no such group. */
    AccountGroup byId(long id);

    /** Null when no such group. */
    AccountGroup byName(String name);

    /** The new group's id. */
    long insert(AccountGroup draft);

    void update(AccountGroup group);

    void delete(long id);

    long accountCount(long groupId);
}
