package dev.detour.core.keys;

import java.util.Set;

/**
 * Which groups a key may route to (SPEC §1, K-2). {@code includeFuture = true} reaches every
 * group, present and future, except the excluded ones; {@code false} reaches only the listed
 * groups. An exclusion always wins.
 */
public record GroupScope(boolean includeFuture, Set<Long> include, Set<Long> exclude) {
    public static final GroupScope ALL = new GroupScope(true, Set.of(), Set.of());

    public GroupScope {
        include = include == null ? Set.of() : Set.copyOf(include);
        exclude = exclude == null ? Set.of() : Set.copyOf(exclude);
    }

    public static GroupScope only(Long... groupIds) {
        return new GroupScope(false, Set.of(groupIds), Set.of());
    }

    public static GroupScope allExcept(Long... groupIds) {
        return new GroupScope(true, Set.of(), Set.of(groupIds));
    }

    public boolean allows(long groupId) {
        if (exclude.contains(groupId)) {
            return false;
        }
        return includeFuture || include.contains(groupId);
    }
}
