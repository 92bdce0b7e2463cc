package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.RouteStates.FamilyRoutes;
import dev.detour.gateway.RouteStates.ModelRoutes;
import dev.detour.gateway.RouteStates.RouteState;
import dev.detour.gateway.RouteStates.State;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MyModelViewTest {
    private static final Instant NOW = Instant.parse("2026-12-01T20:00:00Z");

    private static RouteState route(long id, State state, Long retry) {
        return new RouteState(id, "relay-" + id, "default", 1_000_000, state, retry, "up-m", state == State.UNAVAILABLE);
    }

    private static ModelRoutes model(List<RouteState> chat, List<RouteState> responses) {
        return new ModelRoutes("m", List.of(new FamilyRoutes("chat_completions", chat),
                new FamilyRoutes("responses", responses)), true);
    }

    @Test
    void familiesWithTheSameRoutesShowOneTableAndTheFirstUsableRouteServes() {
        List<RouteState> routes = List.of(route(1, State.UNAVAILABLE, 600L), route(2, State.AVAILABLE, null),
                route(3, State.UNSAMPLED, null));
        MyModelView view = MyModelView.of(model(routes, routes), NOW);
        assertFalse(view.familiesDiffer());
        assertEquals(1, view.sections().size());
        assertEquals("chat_completions", view.sections().get(0).family());
        assertEquals(2, view.serving().accountId());
        assertEquals(2, view.usable());
        assertEquals(List.of(new MyModelView.Down(routes.get(0), NOW.plusSeconds(600))), view.down());
    }

    @Test
    void familiesThatDifferEachKeepTheirTable() {
        List<RouteState> chat = List.of(route(1, State.AVAILABLE, null));
        List<RouteState> responses = List.of(route(1, State.UNSUPPORTED, null));
        MyModelView view = MyModelView.of(model(chat, responses), NOW);
        assertTrue(view.familiesDiffer());
        assertEquals(2, view.sections().size());
    }

    @Test
    void withNothingUsableNoRouteServesAndTheSoonestBackComesFirst() {
        List<RouteState> routes = List.of(route(1, State.UNAVAILABLE, null), route(2, State.UNAVAILABLE, 7200L),
                route(3, State.UNAVAILABLE, 8L), route(4, State.BLOCKED, null));
        MyModelView view = MyModelView.of(model(routes, routes), NOW);
        assertNull(view.serving());
        assertEquals(List.of(3L, 2L, 1L), view.down().stream().map(d -> d.route().accountId()).toList(),
                "blocked routes are not down for a while: the site turned them off");
        assertEquals("my.down.backInSeconds", view.down().get(0).backInKey());
        assertEquals(8, view.down().get(0).backInValue());
        assertEquals("my.down.backInHours", view.down().get(1).backInKey());
        assertEquals(2, view.down().get(1).backInValue());
        assertEquals("20:00 UTC", view.down().get(0).backAtUtc());
    }

    @Test
    void minutesAreRoundedUpSoAMinuteAndASecondIsNeverAboutOneMinute() {
        RouteState r = route(1, State.UNAVAILABLE, 121L);
        MyModelView.Down down = new MyModelView.Down(r, NOW.plusSeconds(121));
        assertEquals("my.down.backInMinutes", down.backInKey());
        assertEquals(3, down.backInValue());
    }

    @Test
    void onlyRoutesThatCouldHaveServedAreNamedUnderARequest() {
        assertTrue(MyModelView.couldHaveServed("rejected_cooling"));
        assertTrue(MyModelView.couldHaveServed("rejected_ratio_ceiling"));
        assertFalse(MyModelView.couldHaveServed("rejected_model_unmapped"));
        assertFalse(MyModelView.couldHaveServed("rejected_contract_mismatch"));
        assertFalse(MyModelView.couldHaveServed("rejected_group_scope"));
    }
}
