package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.attempt.QueueLimits;
import dev.detour.gateway.live.Waiter.Outcome;
import dev.detour.gateway.live.Waiter.Wake;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * S-5 leases with L-2's hand-over, in memory: who a given-back lease goes to, that the count never
 * exceeds the limit on the way, and how waits end. No threads: a waiter's end is read once it ended.
 */
class LeasesTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant DEADLINE = T0.plusSeconds(30);
    private static final QueueLimits BOUNDS = QueueLimits.of(30, 3);
    private final Leases leases = new Leases();

    private Waiter queue(String model, long... accounts) {
        Map<Long, Integer> shares = new LinkedHashMap<>();
        for (long a : accounts) {
            shares.put(a, 1);
        }
        return leases.queue(model, shares, BOUNDS, DEADLINE);
    }

    private void fill(long... accounts) {
        for (long a : accounts) {
            assertTrue(leases.tryAcquire(a, 1));
        }
    }

    private static void assertGranted(long account, Waiter waiter) {
        assertGranted(account, waiter, "handed a lease of account " + account);
    }

    private static void assertGranted(long account, Waiter waiter, String why) {
        assertEquals(new Wake(Outcome.GRANTED, account), waiter.await(), why);
    }

    @Test
    void aGivenBackLeaseGoesToTheFirstWaiterAndTheCountStays() {
        fill(1);
        Waiter first = queue("m", 1);
        Waiter second = queue("m", 1);

        leases.release(1);

        assertGranted(1, first);
        assertFalse(second.ended(), "one release wakes one waiter");
        assertEquals(1, leases.inFlight(1), "the lease changed hands");
        assertFalse(leases.tryAcquire(1, 1), "a newcomer cannot take it meanwhile");
        assertEquals(1, leases.waiting());
    }

    @Test
    void aWaiterForAnotherAccountIsPassedOverButKeepsItsPlace() {
        fill(1, 2);
        Waiter forTwo = queue("m", 2);
        Waiter forOne = queue("m", 1);

        leases.release(1);

        assertGranted(1, forOne);
        assertFalse(forTwo.ended());
        leases.release(2);
        assertGranted(2, forTwo);
    }

    @Test
    void acrossModelsTheWaiterThatCameFirstGetsASharedAccount() {
        fill(1);
        Waiter late = queue("b", 1);
        Waiter later = queue("a", 1);

        leases.release(1);

        assertGranted(1, late, "model b's waiter came first");
        assertFalse(later.ended());
    }

    @Test
    void aLeaseGivenBackWithNobodyWaitingIsCountedDown() {
        fill(1);
        leases.release(1);
        assertEquals(0, leases.inFlight(1));
    }

    @Test
    void aLeaseFreeAtTheLastTryIsTakenWithoutWaiting() {
        Waiter waiter = queue("m", 1);
        assertGranted(1, waiter);
        assertEquals(1, leases.inFlight(1));
        assertEquals(0, leases.waiting());
    }

    @Test
    void aFullQueueRefusesAtOnce() {
        fill(1);
        queue("m", 1);
        queue("m", 1);
        queue("m", 1);
        Waiter fourth = queue("m", 1);
        assertEquals(Outcome.QUEUE_FULL, fourth.await().outcome());
        assertEquals(3, leases.waiting());
        assertFalse(queue("other", 1).ended(), "each model has its own length");
    }

    @Test
    void aLeavingWaiterFreesItsPlaceAndIsNeverHandedALease() {
        fill(1);
        Waiter gone = queue("m", 1);
        Waiter next = queue("m", 1);

        leases.leave(gone, Outcome.CLIENT_GONE);
        leases.release(1);

        assertEquals(Outcome.CLIENT_GONE, gone.await().outcome());
        assertGranted(1, next);
    }

    @Test
    void leavingAfterTheHandOverKeepsTheLease() {
        fill(1);
        Waiter waiter = queue("m", 1);
        leases.release(1);

        leases.leave(waiter, Outcome.CLIENT_GONE);

        assertGranted(1, waiter, "it holds the lease and must give it back");
        assertEquals(1, leases.inFlight(1));
    }

    @Test
    void waitsEndAtTheirDeadlineAndNotBefore() {
        fill(1);
        Waiter waiter = queue("m", 1);

        leases.expireDue(DEADLINE.minusMillis(1));
        assertFalse(waiter.ended());
        leases.expireDue(DEADLINE);

        assertEquals(Outcome.TIMED_OUT, waiter.await().outcome());
        assertEquals(0, leases.waiting());
        leases.release(1);
        assertEquals(0, leases.inFlight(1), "nobody left to hand it to");
    }

    @Test
    void capacityThatAppearsWithoutAReleaseGoesToTheWaitersInArrivalOrder() {
        fill(1);
        Waiter first = queue("b", 1);
        Waiter second = queue("a", 1);
        Waiter third = queue("a", 1);

        leases.handOutFree(account -> 3); // max_in_flight raised from 1 to 3

        assertGranted(1, first);
        assertGranted(1, second);
        assertFalse(third.ended(), "3 in flight: the limit holds");
        assertEquals(3, leases.inFlight(1));
        leases.handOutFree(account -> null); // the account is gone: nothing to hand out
        assertFalse(third.ended());
    }

    @Test
    void stoppingLetsEveryWaiterGo() {
        fill(1);
        Waiter a = queue("a", 1);
        Waiter b = queue("b", 1);
        leases.stopWaiting();
        assertEquals(Outcome.STOPPING, a.await().outcome());
        assertEquals(Outcome.STOPPING, b.await().outcome());
    }
}
