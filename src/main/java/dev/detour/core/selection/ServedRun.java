package dev.detour.core.selection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * N-10: a stretch of a pool's accounts of one group, next to each other in pool order, with what S-1 steps 2–5
 * make of them worked out once with the pool ({@link ServedRoutes}). A request whose key reaches the group with no
 * block rule in force and no ratio ceiling against it takes the stretch whole in screening (its survivors, its
 * rejections) instead of visiting each account; and when the group is not halted and no cooldown of the stretch's
 * routes lies ahead, partition admits its ready routes whole too. Visiting every account of a 200-account pool on
 * every request for an answer that changes only with the pool, the key or a cooldown was about a third of a plan's
 * time in the running gateway (docs/performance.md). A pool lists a group's accounts together, so it has about one
 * stretch per group; its places keep pool order, so what a request gathers run by run is what a visit of each
 * account in turn gathers.
 */
final class ServedRun {
    final long groupId;
    /** The stretch's places in the pool: {@code from} (inclusive) to {@code to} (exclusive). */
    final int from;
    final int to;
    /** The places past steps 2–4 (served, mapping the model), in pool order. */
    final int[] survivors;
    /** Steps 2–4's rejections (account status, contract mismatch, model unmapped), in pool order. */
    final List<Rejection> unserved;
    /** Accounts past steps 2–3, mapping the model or not (what tells {@code model_unmatched} from no accounts). */
    final int capable;
    /** The survivors step 5 keeps (no paused or error model row), in pool order. */
    final int[] ready;
    /** Step 5's rejections of the survivors, in pool order. */
    final List<Rejection> dropped;
    /** The latest recovery (account block, model cooldown) among the ready routes, or null when none has one. */
    final Instant latestRecovery;

    private ServedRun(long groupId, int from, int to, int[] survivors, List<Rejection> unserved, int capable,
            int[] ready, List<Rejection> dropped, Instant latestRecovery) {
        this.groupId = groupId;
        this.from = from;
        this.to = to;
        this.survivors = survivors;
        this.unserved = unserved;
        this.capable = capable;
        this.ready = ready;
        this.dropped = dropped;
        this.latestRecovery = latestRecovery;
    }

    /** The stretches of {@code served}'s pool, in pool order, each as long as its group's accounts stay together. */
    static ServedRun[] of(ServedRoutes served) {
        long[] groups = served.facts().groupId;
        List<ServedRun> runs = new ArrayList<>();
        for (int from = 0; from < groups.length; ) {
            int to = from + 1;
            while (to < groups.length && groups[to] == groups[from]) {
                to++;
            }
            runs.add(of(served, from, to));
            from = to;
        }
        return runs.toArray(ServedRun[]::new);
    }

    private static ServedRun of(ServedRoutes served, int from, int to) {
        long[] ids = served.facts().id;
        int[] survivors = new int[to - from];
        int survived = 0;
        int[] ready = new int[to - from];
        int readied = 0;
        List<Rejection> unserved = new ArrayList<>();
        List<Rejection> dropped = new ArrayList<>();
        int capable = 0;
        Instant latest = null;
        for (int i = from; i < to; i++) {
            ReasonCode reason = served.unserved(i);
            if (reason != null) {
                unserved.add(new Rejection(ids[i], reason));
                continue;
            }
            capable++;
            if (served.route(i) == null) {
                unserved.add(new Rejection(ids[i], ReasonCode.REJECTED_MODEL_UNMAPPED));
                continue;
            }
            survivors[survived++] = i;
            ReasonCode verdict = served.dropped(i);
            if (verdict != null) {
                dropped.add(new Rejection(ids[i], verdict));
                continue;
            }
            ready[readied++] = i;
            Instant recovers = served.recovers(i);
            if (recovers != null && (latest == null || recovers.isAfter(latest))) {
                latest = recovers;
            }
        }
        return new ServedRun(served.facts().groupId[from], from, to, Arrays.copyOf(survivors, survived),
                List.copyOf(unserved), capable, Arrays.copyOf(ready, readied), List.copyOf(dropped), latest);
    }

    /** Whether none of the ready routes' own recoveries lies after {@code now} (their group's halt aside). */
    boolean recoveredAt(Instant now) {
        return latestRecovery == null || !latestRecovery.isAfter(now);
    }
}
