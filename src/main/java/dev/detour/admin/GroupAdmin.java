package dev.detour.admin;

import dev.detour.adapter.db.AccountMapper;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.GroupMapper;
import dev.detour.adapter.db.GroupRow;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.session.SqlSession;

/** Group use cases behind the console and the admin API; every change is audited and bumps the pool revision. */
public final class GroupAdmin {
    private final Database database;
    private final AuditLog audit;
    private final Clock clock;

    public GroupAdmin(Database database, AuditLog audit, Clock clock) {
        this.database = database;
        this.audit = audit;
        this.clock = clock;
    }

    /** S-9: seconds until the group's halt lifts (0 when not halted), rounded up. */
    public long haltedRemainingSeconds(GroupRow row) {
        java.time.Instant now = clock.instant();
        if (row.haltedUntil() == null || !row.haltedUntil().isAfter(now)) {
            return 0;
        }
        return (java.time.Duration.between(now, row.haltedUntil()).toMillis() + 999) / 1000;
    }

    public List<GroupRow> list() {
        return database.read(s -> s.getMapper(GroupMapper.class).selectAll());
    }

    public GroupRow get(long id) {
        GroupRow row = database.read(s -> s.getMapper(GroupMapper.class).selectById(id));
        if (row == null) {
            throw notFound(id);
        }
        return row;
    }

    public GroupRow create(String actor, GroupPatch patch) {
        Instant now = clock.instant();
        GroupRow draft = new GroupRow(0, GroupRules.name(patch.name()),
                GroupRules.ratioPpm(patch.ratioPpm() != null ? patch.ratioPpm() : GroupRules.DEFAULT_RATIO_PPM),
                GroupRules.color(patch.color() != null ? patch.color() : GroupRules.DEFAULT_COLOR),
                GroupRules.haltPolicy(patch.haltPolicy() != null ? patch.haltPolicy() : "off"),
                null, 0, null, now, now);
        return Duplicates.guard(() -> database.inTransaction(s -> {
            GroupMapper groups = s.getMapper(GroupMapper.class);
            requireFreeName(groups, draft.name(), 0);
            groups.insert(draft);
            GroupRow created = groups.selectById(groups.selectLastInsertId());
            changed(s, actor, "group.create", created.id(), null, created);
            return created;
        }), "a group");
    }

    public GroupRow update(String actor, long id, GroupPatch patch) {
        return Duplicates.guard(() -> database.inTransaction(s -> {
            GroupMapper groups = s.getMapper(GroupMapper.class);
            GroupRow before = existing(groups, id);
            GroupRow after = new GroupRow(id,
                    patch.name() != null ? GroupRules.name(patch.name()) : before.name(),
                    patch.ratioPpm() != null ? GroupRules.ratioPpm(patch.ratioPpm()) : before.ratioPpm(),
                    patch.color() != null ? GroupRules.color(patch.color()) : before.color(),
                    patch.haltPolicy() != null ? GroupRules.haltPolicy(patch.haltPolicy()) : before.haltPolicy(),
                    before.haltedUntil(), before.haltStreak(), before.haltReason(), before.createdAt(), clock.instant());
            requireFreeName(groups, after.name(), id);
            groups.update(after);
            GroupRow stored = groups.selectById(id);
            changed(s, actor, "group.update", id, before, stored);
            return stored;
        }), "a group");
    }

    /** A group that still has accounts is refused with conflict.group_in_use. */
    public void delete(String actor, long id) {
        database.inTransaction(s -> {
            GroupMapper groups = s.getMapper(GroupMapper.class);
            GroupRow before = existing(groups, id);
            if (groups.countAccounts(id) > 0) {
                throw new ConflictException(ConflictException.GROUP_IN_USE, null,
                        "group " + before.name() + " still has accounts; move or delete them first");
            }
            groups.delete(id);
            changed(s, actor, "group.delete", id, before, null);
            return null;
        });
    }

    private void changed(SqlSession s, String actor, String action, long id, GroupRow before, GroupRow after) {
        audit.record(s, actor, action, "group", id, before == null ? null : Documents.group(before).toString(),
                after == null ? null : Documents.group(after).toString());
        // ratio and halt policy feed selection: other instances refresh (O-4)
        s.getMapper(AccountMapper.class).bumpPoolRevision();
    }

    private static GroupRow existing(GroupMapper groups, long id) {
        GroupRow row = groups.selectById(id);
        if (row == null) {
            throw notFound(id);
        }
        return row;
    }

    private static void requireFreeName(GroupMapper groups, String name, long selfId) {
        GroupRow other = groups.selectByName(name);
        if (other != null && other.id() != selfId) {
            throw Duplicates.duplicateName("a group");
        }
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("group " + id + " does not exist");
    }
}
