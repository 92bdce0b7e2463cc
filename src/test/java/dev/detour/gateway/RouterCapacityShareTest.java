package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.selection.SelectionPipeline;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.LoadDistribution;
import org.junit.jupiter.api.Test;

/** S-5: /my's "busy" and the Forwarder's lease both use this instance's share of max_in_flight. */
class RouterCapacityShareTest {
    @Test
    void withTwoInstancesEachHoldsTheRoundedUpHalfAndUnlimitedStaysUnlimited() {
        LoadDistribution load = new LoadDistribution(null, null);
        load.useInstances(2);
        Router router = new Router(new SelectionPipeline(), Router.THREAD_RANDOM, SmartKeyFacts.none(), load);

        assertEquals(2, router.capacityShare(3));
        assertEquals(1, router.capacityShare(1));
        assertEquals(0, router.capacityShare(0));
    }

    @Test
    void onOneInstanceTheConfiguredLimitIsTheShare() {
        assertEquals(3, new Router(new SelectionPipeline(), Router.THREAD_RANDOM, SmartKeyFacts.none(),
                new LoadDistribution(null, null)).capacityShare(3));
    }
}
