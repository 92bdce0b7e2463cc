package dev.detour.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DemoModeTest {
    @ParameterizedTest(name = "bind {0} is reached at {1}")
    @CsvSource(delimiter = '|', value = {"127.0.0.1|127.0.0.1", "0.0.0.0|127.0.0.1", "::|127.0.0.1",
        "10.1.2.3|10.1.2.3", "::1|[::1]", "localhost|localhost"})
    void theTrickleReachesDetourOnItsOwnBindAddressOrLoopbackForAWildcard(String bind, String host) {
        assertEquals(host, DemoMode.loopbackHost(bind));
    }

    @Test
    void theSamplePoolHasOneAccountPerBehaviourInItsOwnGroups() {
        assertEquals(Set.of(DemoBehaviour.values()),
                DemoPool.ACCOUNTS.stream().map(DemoPool.Account::behaviour).collect(Collectors.toSet()));
        Set<String> groups = DemoPool.GROUPS.stream().map(DemoPool.Group::name).collect(Collectors.toSet());
        DemoPool.ACCOUNTS.forEach(a -> {
            assertTrue(groups.contains(a.group()), a.name());
            assertTrue(DemoPool.isDemoAccount(a.name()));
        });
    }

    @Test
    void theScriptAsksForEveryModelTheFailingRelaysServe() {
        Set<String> asked = DemoTrickle.SCRIPT.stream().map(DemoTrickle.Step::model).collect(Collectors.toSet());
        DemoPool.ACCOUNTS.forEach(a -> a.mappings().forEach(m -> assertTrue(asked.contains(m.from()), m.from())));
        assertTrue(DemoTrickle.SCRIPT.stream().anyMatch(DemoTrickle.Step::stream));
        assertTrue(DemoTrickle.SCRIPT.stream().anyMatch(s -> !s.stream()));
    }
}
