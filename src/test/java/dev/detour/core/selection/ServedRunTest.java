package dev.detour.core.selection;

import static dev.detour.testkit.AccountMother.account;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.keys.GroupScope;
import dev.detour.core.keys.KeyPolicy;
import dev.detour.testkit.AccountMother;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * N-10: screening and partition take a group's stretch of the pool whole ({@link ServedRun}), worked out once with
 * the pool, when nothing about it depends on the request's time or a block rule. Guard: on random pools (groups
 * listed together and apart, accounts disabled, out of quota, of another family, not mapping the model, model rows
 * paused / in error / cooling, account blocks ahead and past, halted groups, keys scoped to some groups, ratio
 * ceilings, several priorities) every plan — candidates with their reasons, rejections in order, error and retry
 * time — equals the plan of the same request with a block rule in force that blocks nothing, which visits every
 * account one by one as selection did before stretches.
 */
class ServedRunTest {
    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final String MODEL = "gpt-5.6-sol";
    private static final BlockRule BLOCKS_NOTHING = BlockRule.account(999_999);

    @Test
    void aPlanTakingStretchesWholeIsThePlanVisitingEveryAccount() {
        Random random = new Random(31);
        Set<ReasonCode> rejected = EnumSet.noneOf(ReasonCode.class);
        Set<PoolErrorCode> failed = EnumSet.noneOf(PoolErrorCode.class);
        int selected = 0;
        for (int round = 0; round < 2_000; round++) {
            List<Account> accounts = pool(random, 1 + random.nextInt(24));
            Map<ModelStateKey, ModelState> models = models(random, accounts);
            PoolRoutes pool = PoolRoutes.of(accounts, models);
            SelectionRequest request = request(random);
            long seed = random.nextLong();

            Plan byStretches = new SelectionPipeline().plan(request, pool, NOW, new SeededRandom(seed));
            Plan byAccounts = new SelectionPipeline().plan(request.withBlockRules(List.of(BLOCKS_NOTHING)), pool, NOW,
                    new SeededRandom(seed));

            assertEquals(summary(byAccounts), summary(byStretches), "round " + round);
            byStretches.rejections().forEach(r -> rejected.add(r.reason()));
            if (byStretches.isSelected()) {
                selected++;
            } else {
                failed.add(byStretches.error());
            }
        }
        // the random pools reach every branch the stretches take or leave
        assertTrue(rejected.containsAll(EnumSet.of(ReasonCode.REJECTED_GROUP_SCOPE, ReasonCode.REJECTED_RATIO_CEILING,
                ReasonCode.REJECTED_ACCOUNT_STATUS, ReasonCode.REJECTED_CONTRACT_MISMATCH,
                ReasonCode.REJECTED_MODEL_UNMAPPED, ReasonCode.REJECTED_MODEL_PAUSED, ReasonCode.REJECTED_MODEL_ERROR,
                ReasonCode.REJECTED_COOLING, ReasonCode.REJECTED_GROUP_HALTED)), "reasons seen: " + rejected);
        assertTrue(selected > 500, "plans selected: " + selected);
        assertTrue(failed.containsAll(EnumSet.of(PoolErrorCode.MODEL_UNAVAILABLE, PoolErrorCode.NO_ELIGIBLE_ROUTE,
                PoolErrorCode.HALTED)), "errors seen: " + failed);
    }

    @Test
    void aStretchIsAGroupsAccountsListedTogether() {
        List<Account> accounts = List.of(
                account(1).group(1).maps(MODEL, MODEL).build(),
                account(2).group(1).maps("other", "other").build(),
                account(3).group(1).maps(MODEL, MODEL).disabled().build(),
                account(4).group(2).maps(MODEL, MODEL).coolingUntil(NOW.plusSeconds(30)).build(),
                account(5).group(2).maps(MODEL, MODEL).build(),
                account(6).group(1).maps(MODEL, MODEL).build());
        Map<ModelStateKey, ModelState> models = Map.of(new ModelStateKey(5, MODEL),
                AccountMother.modelState(5, MODEL, ModelStatus.PAUSED, null));

        ServedRun[] runs = PoolRoutes.of(accounts, models).served(EndpointFamily.CHAT_COMPLETIONS, MODEL).runs();

        assertEquals(3, runs.length);
        assertEquals(1, runs[0].groupId);
        assertEquals(0, runs[0].from);
        assertEquals(3, runs[0].to);
        assertArrayEquals(new int[] {0}, runs[0].survivors);
        assertArrayEquals(new int[] {0}, runs[0].ready);
        assertEquals(List.of(new Rejection(2, ReasonCode.REJECTED_MODEL_UNMAPPED),
                new Rejection(3, ReasonCode.REJECTED_ACCOUNT_STATUS)), runs[0].unserved);
        assertEquals(2, runs[0].capable, "the unmapped account is capable, the disabled one is not");
        assertNull(runs[0].latestRecovery);
        assertEquals(2, runs[1].groupId);
        assertArrayEquals(new int[] {3, 4}, runs[1].survivors);
        assertArrayEquals(new int[] {3}, runs[1].ready, "the paused model row drops account 5");
        assertEquals(List.of(new Rejection(5, ReasonCode.REJECTED_MODEL_PAUSED)), runs[1].dropped);
        assertEquals(NOW.plusSeconds(30), runs[1].latestRecovery);
        assertTrue(!runs[1].recoveredAt(NOW) && runs[1].recoveredAt(NOW.plusSeconds(30)));
        assertEquals(1, runs[2].groupId);
        assertEquals(5, runs[2].from);
        assertArrayEquals(new int[] {5}, runs[2].survivors);
    }

    @Test
    void placesAddedWholeAreSharedUntilMoreFollow() {
        int[] stretch = {2, 3, 5};
        Places places = new Places(8);
        places.addAll(stretch);
        places.add(7);
        places.addAll(new int[] {9});

        assertArrayEquals(new int[] {2, 3, 5}, stretch, "the stretch's own array is never written");
        assertEquals(5, places.size());
        int[] read = new int[places.size()];
        for (int i = 0; i < read.length; i++) {
            read[i] = places.get(i);
        }
        assertArrayEquals(new int[] {2, 3, 5, 7, 9}, read);
    }

    private static List<Account> pool(Random random, int size) {
        List<Account> accounts = new ArrayList<>();
        long group = 1 + random.nextInt(3);
        for (int id = 1; id <= size; id++) {
            if (random.nextInt(4) == 0) {
                group = 1 + random.nextInt(3); // mostly together, sometimes apart
            }
            AccountMother a = account(id).group(group).priority(random.nextInt(4) == 0 ? 1 : 0)
                    .weight(1 + random.nextInt(5));
            a.maps(random.nextInt(8) == 0 ? "other" : MODEL, MODEL);
            switch (random.nextInt(16)) {
                case 0 -> a.disabled();
                case 1 -> a.quota(0L);
                case 2 -> a.families(EndpointFamily.MESSAGES);
                case 3 -> a.coolingUntil(NOW.plusSeconds(1 + random.nextInt(60)));
                case 4 -> a.coolingUntil(NOW.minusSeconds(1 + random.nextInt(60)));
                case 5 -> a.coolingUntil(NOW); // recovered at this very moment
                default -> {
                }
            }
            accounts.add(a.build());
        }
        return accounts;
    }

    private static Map<ModelStateKey, ModelState> models(Random random, List<Account> accounts) {
        Map<ModelStateKey, ModelState> models = new HashMap<>();
        for (Account a : accounts) {
            ModelState state = switch (random.nextInt(12)) {
                case 0 -> AccountMother.modelState(a.id(), MODEL, ModelStatus.PAUSED, null);
                case 1 -> AccountMother.modelState(a.id(), MODEL, ModelStatus.ERROR, null);
                case 2 -> AccountMother.coolingModel(a.id(), MODEL, NOW.plusSeconds(1 + random.nextInt(60)));
                case 3 -> AccountMother.coolingModel(a.id(), MODEL, NOW.minusSeconds(1 + random.nextInt(60)));
                default -> null;
            };
            if (state != null) {
                models.put(new ModelStateKey(a.id(), MODEL), state);
            }
        }
        return models;
    }

    private static SelectionRequest request(Random random) {
        KeyPolicy policy = switch (random.nextInt(6)) {
            case 0 -> KeyPolicy.UNRESTRICTED.withGroups(GroupScope.only(1L + random.nextInt(3)));
            case 1 -> KeyPolicy.UNRESTRICTED.withGroups(GroupScope.allExcept(1L + random.nextInt(3)));
            case 2 -> KeyPolicy.UNRESTRICTED.withMaxRatioPpm(1_500_000);
            default -> KeyPolicy.UNRESTRICTED;
        };
        Map<Long, GroupView> groups = new HashMap<>();
        for (long g = 1; g <= 3; g++) {
            Instant halt = switch (random.nextInt(8)) {
                case 0 -> NOW.plusSeconds(1 + random.nextInt(60));
                case 1 -> NOW.minusSeconds(1 + random.nextInt(60));
                default -> null;
            };
            groups.put(g, new GroupView(g, random.nextInt(4) == 0 ? 2_000_000 : GroupView.RATIO_ONE, halt));
        }
        return SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL).withPolicy(policy).withGroups(groups);
    }

    /** What a plan says, comparable: its error and retry time, each candidate and each rejection in order. */
    private static List<Object> summary(Plan plan) {
        List<Object> summary = new ArrayList<>();
        summary.add(plan.error());
        summary.add(plan.retryAfter());
        summary.add(plan.reason());
        for (Candidate c : plan.candidates()) {
            summary.add(List.of(c.accountId(), String.valueOf(c.upstreamModel()), c.why(),
                    String.valueOf(c.coolingUntil())));
        }
        summary.addAll(plan.rejections());
        return summary;
    }
}
