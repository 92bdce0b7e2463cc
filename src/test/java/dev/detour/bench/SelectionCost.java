package dev.detour.bench;

import com.sun.management.ThreadMXBean;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.EpochNanos;
import dev.detour.core.selection.LastPicks;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.PoolRoutes;
import dev.detour.core.selection.RankingInputs;
import dev.detour.core.selection.SeededRandom;
import dev.detour.core.selection.SelectionPipeline;
import dev.detour.core.selection.SelectionRequest;
import dev.detour.testkit.AccountMother;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * N-10: what one request's selection costs as the pool grows — time and bytes allocated per
 * {@link SelectionPipeline#plan} for 4, 50, 200 and 1,000 accounts, each account mapping the requested
 * model and one other (so most of the pool serves the request). Allocation counts are the machine-independent
 * figure (the thread's allocated bytes); time is only comparable within one run on one machine. A plan ranks its
 * failover tail only when it is read, so bytes are given for a plan whose first candidate is read (a request
 * answered at once) and for one read whole (failover through every route, a preview). Not a test:
 * {@code bench/selection-cost.sh} runs it from the test classes.
 */
public final class SelectionCost {
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final String MODEL = "gpt-bench";

    private SelectionCost() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        SelectionPipeline pipeline = new SelectionPipeline();
        SelectionRequest request = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL);
        System.out.println("| accounts | ns per plan | bytes per plan (first candidate read) "
                + "| bytes per plan read whole | candidates | rejections |");
        System.out.println("|---:|---:|---:|---:|---:|---:|");
        for (int size : new int[] {4, 50, 200, 1000}) {
            // as the gateway's snapshot holds a pool: what each account serves is worked out once, not per plan
            PoolRoutes pool = PoolRoutes.of(pool(size), Map.of());
            SeededRandom random = new SeededRandom(1);
            int perSize = Math.max(2_000, rounds * 4 / size); // the same order of work per size
            Plan last = null;
            for (int i = 0; i < perSize; i++) { // warm-up: let the JIT settle on this size
                last = pipeline.plan(request, pool, NOW, random);
                sink += last.candidates().get(0).accountId() + readWhole(last);
            }
            // what a request answered by its first candidate costs: the plan and its first place
            long bytes0 = threads.getCurrentThreadAllocatedBytes();
            long t0 = System.nanoTime();
            for (int i = 0; i < perSize; i++) {
                last = pipeline.plan(request, pool, NOW, random);
                sink += last.candidates().get(0).accountId();
            }
            long nanos = System.nanoTime() - t0;
            long bytes = threads.getCurrentThreadAllocatedBytes() - bytes0;
            // the same with every candidate read (a request failing over through the whole pool, a preview)
            long wholeBytes0 = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < perSize; i++) {
                sink += readWhole(pipeline.plan(request, pool, NOW, random));
            }
            long wholeBytes = threads.getCurrentThreadAllocatedBytes() - wholeBytes0;
            System.out.printf("| %d | %,d | %,d | %,d | %d | %d |%n", size, nanos / perSize, bytes / perSize,
                    wholeBytes / perSize, last.candidates().size(), last.rejections().size());
        }
        gatewayLike(pipeline, rounds);
        if (sink == 42) {
            System.out.println(); // keeps the reads from being optimised away
        }
    }

    private static long sink;

    /**
     * The pool as bench/run.sh's N-10 leg has it: one group, one priority, 95 % of the accounts serving the
     * requested model and the rest another; a clock 50 µs further per plan (20k requests a second) and each plan's
     * first candidate recorded as picked, as the gateway records its picks — so the shortlist's gap and the idle
     * bonuses move as they do in the running gateway.
     */
    private static void gatewayLike(SelectionPipeline pipeline, int rounds) {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        System.out.println();
        System.out.println("| accounts (one tier, 95 % serving, live picks) | ns per plan | bytes per plan |");
        System.out.println("|---:|---:|---:|");
        for (int size : new int[] {4, 50, 200, 1000}) {
            List<Account> accounts = new ArrayList<>(size);
            int serving = Math.max(4, size * 95 / 100);
            for (int i = 1; i <= size; i++) {
                accounts.add(AccountMother.account(i).maps(i <= serving ? MODEL : "other", "up-" + MODEL).build());
            }
            PoolRoutes pool = PoolRoutes.of(accounts, Map.of());
            long[] picked = new long[size + 1];
            Arrays.fill(picked, EpochNanos.NEVER);
            LastPicks picks = new LastPicks() {
                @Override
                public Instant of(long accountId) {
                    return EpochNanos.toInstant(picked[(int) accountId]);
                }

                @Override
                public long nanosOf(long accountId) {
                    return picked[(int) accountId];
                }
            };
            SelectionRequest request = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL)
                    .withInputs(RankingInputs.NONE.withLastPicks(picks));
            SeededRandom random = new SeededRandom(1);
            int perSize = Math.max(2_000, rounds * 4 / size);
            long nanos = 0;
            long bytes = 0;
            for (int pass = 0; pass < 2; pass++) { // the first pass warms up
                long bytes0 = threads.getCurrentThreadAllocatedBytes();
                long t0 = System.nanoTime();
                for (int i = 0; i < perSize; i++) {
                    Instant now = NOW.plusNanos(50_000L * (pass * perSize + i));
                    Plan plan = pipeline.plan(request, pool, now, random);
                    long first = plan.candidates().get(0).accountId();
                    picked[(int) first] = EpochNanos.of(now);
                    sink += first;
                }
                nanos = System.nanoTime() - t0;
                bytes = threads.getCurrentThreadAllocatedBytes() - bytes0;
            }
            System.out.printf("| %d | %,d | %,d |%n", size, nanos / perSize, bytes / perSize);
        }
    }

    private static long readWhole(Plan plan) {
        long sum = 0;
        for (Candidate c : plan.candidates()) {
            sum += c.accountId();
        }
        return sum;
    }

    private static List<Account> pool(int size) {
        List<Account> accounts = new ArrayList<>(size);
        for (int i = 1; i <= size; i++) {
            accounts.add(AccountMother.account(i).maps(MODEL, "up-" + MODEL).maps("other-" + i, "up-other")
                    .priority(i % 3).weight(1 + i % 5).build());
        }
        return accounts;
    }
}
