package dev.detour.core.selection;

import dev.detour.core.account.Account;
import java.util.List;

/**
 * What selection reads of each account of a pool on every request, in primitive columns by the account's place
 * in the pool (N-10). A plan screens every account and weighs every route of its first tier per request; reading
 * that from the accounts meant a handful of objects per route (the route, the account, its boxed quota, its
 * last-use instant), scattered over the heap and no longer in the CPU's caches from one request to the next: most
 * of a 200-account plan's time in the running gateway. A pool is never edited, so these are worked out once with it.
 */
final class RankFacts {
    /** {@link #quota}'s value when the account's remaining quota is unknown (S-4 then weighs by weight). */
    static final long NO_QUOTA = Long.MIN_VALUE;

    final long[] id;
    final long[] groupId;
    final int[] priority;
    /** Remaining quota, or {@link #NO_QUOTA}. */
    final long[] quota;
    final long[] weight;
    /** S-4's success rate from the account's counters. */
    final long[] successPpm;
    /** The stored last use ({@link EpochNanos}, or {@link EpochNanos#NEVER}). */
    final long[] lastUsed;

    private RankFacts(int size) {
        id = new long[size];
        groupId = new long[size];
        priority = new int[size];
        quota = new long[size];
        weight = new long[size];
        successPpm = new long[size];
        lastUsed = new long[size];
    }

    static RankFacts of(List<Account> accounts) {
        RankFacts facts = new RankFacts(accounts.size());
        for (int i = 0; i < accounts.size(); i++) {
            Account a = accounts.get(i);
            facts.id[i] = a.id();
            facts.groupId[i] = a.groupId();
            facts.priority[i] = a.priority();
            facts.quota[i] = a.quotaRemaining() == null ? NO_QUOTA : a.quotaRemaining();
            facts.weight[i] = a.weight();
            facts.successPpm[i] = TierPick.successRatePpm(a);
            facts.lastUsed[i] = EpochNanos.of(a.lastUsedAt());
        }
        return facts;
    }

    int size() {
        return id.length;
    }
}
