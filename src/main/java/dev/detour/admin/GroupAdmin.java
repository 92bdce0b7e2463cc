package dev.detour.admin;

import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.Groups;
import dev.detour.admin.port.Transactions;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Group use cases behind the console and the admin API; every change is audited and bumps the pool revision. */
public final class GroupAdmin {
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;

    public GroupAdmin(Transactions transactions, AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
    }

    /** S-9: seconds until the group's halt lifts (0 when not halted), rounded up. */
    public long haltedRemainingSeconds(AccountGroup row) {
        java.time.Instant now = clock.instant();
        if (row.haltedUntil() == null || !row.haltedUntil().isAfter(now)) {
            return 0;
        }
        return (java.time.Duration.between(now, row.haltedUntil()).toMillis() + 999) / 1000;
    }

    public List<AccountGroup> list() {
        return transactions.read(c -> c.groups().all());
    }

    public AccountGroup get(long id) {
        AccountGroup row = transactions.read(c -> c.groups().byId(id));
        if (row == null) {
            throw notFound(id);
        }
        return row;
    }

    public AccountGroup create(String actor, GroupPatch patch) {
        Instant now = clock.instant();
        AccountGroup draft = new AccountGroup(0, GroupRules.name(patch.name()),
                GroupRules.ratioPpm(patch.ratioPpm() != null ? patch.ratioPpm() : GroupRules.DEFAULT_RATIO_PPM),
                GroupRules.color(patch.color() != null ? patch.color() : GroupRules.DEFAULT_COLOR),
                GroupRules.haltPolicy(patch.haltPolicy() != null ? patch.haltPolicy() : "off"),
                null, 0, null, now, now);
        return Duplicates.guard(() -> transactions.inTransaction(c -> {
            Groups groups = c.groups();
            requireFreeName(groups, draft.name(), 0);
            AccountGroup created = groups.byId(groups.insert(draft));
            changed(c, actor, "group.create", created.id(), null, created);
            return created;
        }), "a group");
    }

    public AccountGroup update(String actor, long id, GroupPatch patch) {
        return Duplicates.guard(() -> transactions.inTransaction(c -> {
            Groups groups = c.groups();
            AccountGroup before = existing(groups, id);
            AccountGroup after = new AccountGroup(id,
                    patch.name() != null ? GroupRules.name(patch.name()) : before.name(),
                    patch.ratioPpm() != null ? GroupRules.ratioPpm(patch.ratioPpm()) : before.ratioPpm(),
                    patch.color() != null ? GroupRules.color(patch.color()) : before.color(),
                    patch.haltPolicy() != null ? GroupRules.haltPolicy(patch.haltPolicy()) : before.haltPolicy(),
                    before.haltedUntil(), before.haltStreak(), before.haltReason(), before.createdAt(), clock.instant());
            requireFreeName(groups, after.name(), id);
            groups.update(after);
            AccountGroup stored = groups.byId(id);
            changed(c, actor, "group.update", id, before, stored);
            return stored;
        }), "a group");
    }

    /** A group that still has accounts is refused with conflict.group_in_use. */
    public void delete(String actor, long id) {
        transactions.inTransaction(c -> {
            Groups groups = c.groups();
            AccountGroup before = existing(groups, id);
            if (groups.accountCount(id) > 0) {
                throw new ConflictException(ConflictException.GROUP_IN_USE, null,
                        "group " + before.name() + " still has accounts; move or delete them first");
            }
            groups.delete(id);
            changed(c, actor, "group.delete", id, before, null);
            return null;
        });
    }

    private void changed(Changes c, String actor, String action, long id, AccountGroup before, AccountGroup after) {
        audit.record(c, actor, action, "group", id, audit.documents().group(before), audit.documents().group(after));
        // ratio and halt policy feed selection: other instances refresh (O-4)
        c.bumpPoolRevision();
    }

    private static AccountGroup existing(Groups groups, long id) {
        return NotFoundException.unlessMissing(groups.byId(id), "group", id);
    }

    private static void requireFreeName(Groups groups, String name, long selfId) {
        AccountGroup other = groups.byName(name);
        if (other != null && other.id() != selfId) {
            throw Duplicates.duplicateName("a group");
        }
    }

    private static NotFoundException notFound(long id) {
        return new NotFoundException("group " + id + " does not exist");
    }
}
