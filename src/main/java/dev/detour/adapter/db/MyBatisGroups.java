package dev.detour.adapter.db;

import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.Groups;
import java.util.List;

/** {@link Groups} in {@code groups_}, inside the caller's session. */
record MyBatisGroups(GroupMapper mapper) implements Groups {
    @Override
    public List<AccountGroup> all() {
        return mapper.selectAll();
    }

    @Override
    public AccountGroup byId(long id) {
        return mapper.selectById(id);
    }

    @Override
    public AccountGroup byName(String name) {
        return mapper.selectByName(name);
    }

    @Override
    public long insert(AccountGroup draft) {
        mapper.insert(draft);
        return mapper.selectLastInsertId();
    }

    @Override
    public void update(AccountGroup group) {
        mapper.update(group);
    }

    @Override
    public void delete(long id) {
        mapper.delete(id);
    }

    @Override
    public long accountCount(long groupId) {
        return mapper.countAccounts(groupId);
    }
}
