package dev.detour.adapter.web;

import dev.detour.core.selection.ReasonCode;
import dev.detour.gateway.RouteStates;
import dev.detour.gateway.RouteStates.FamilyRoutes;
import dev.detour.gateway.RouteStates.ModelRoutes;
import dev.detour.gateway.RouteStates.RouteState;
import dev.detour.gateway.RouteStates.State;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * U-10: one model of {@code /my} read at a glance. A summary line says which route serves now and what is
 * down and when it is expected back; the route tables follow, folded, once when every endpoint family has
 * the same routes in the same states (the usual case) and one per family only where they differ.
 *
 * @param serving      the route a request would take first now (the plan's first usable one), null when none
 * @param down         routes that cannot serve now but can come back by themselves, soonest back first
 * @param sections     the tables to show: one (all families alike) or one per family
 * @param familiesDiffer whether the sections are per family (then each gets its family heading)
 */
public record MyModelView(String model, boolean sampled, RouteState serving, int usable, List<Down> down,
        List<FamilyRoutes> sections, boolean familiesDiffer) {

    /** A route that is down, with when it is expected back (null: when a check or the site clears it). */
    public record Down(RouteState route, Instant backAt) {
        private static final DateTimeFormatter CLOCK_UTC = DateTimeFormatter.ofPattern("HH:mm 'UTC'")
                .withZone(ZoneOffset.UTC);

        /** The message saying how long until it is back: seconds below 90 s, minutes below 90 min, else hours. */
        public String backInKey() {
            long s = route.retryInSeconds() == null ? 0 : route.retryInSeconds();
            return s < 90 ? "my.down.backInSeconds" : s < 90 * 60 ? "my.down.backInMinutes" : "my.down.backInHours";
        }

        /** The number for {@link #backInKey()}, rounded up: "about 2 min" is never said of 61 s. */
        public long backInValue() {
            long s = route.retryInSeconds() == null ? 0 : route.retryInSeconds();
            return s < 90 ? s : s < 90 * 60 ? (s + 59) / 60 : (s + 3599) / 3600;
        }

        /** What the page shows until its script puts the time in the viewer's zone. */
        public String backAtUtc() {
            return backAt == null ? null : CLOCK_UTC.format(backAt);
        }
    }

    /** States in which a request may be sent to the route now (busy ones wait for a free place). */
    private static final Set<State> USABLE = EnumSet.of(State.AVAILABLE, State.UNSAMPLED, State.BUSY);

    public static MyModelView of(ModelRoutes routes, Instant now) {
        List<FamilyRoutes> families = routes.families();
        boolean alike = families.stream().allMatch(f -> f.routes().equals(families.get(0).routes()));
        List<RouteState> first = families.isEmpty() ? List.of() : families.get(0).routes();
        RouteState serving = first.stream().filter(r -> USABLE.contains(r.state())).findFirst().orElse(null);
        int usable = (int) first.stream().filter(r -> USABLE.contains(r.state())).count();
        List<Down> down = new ArrayList<>();
        for (RouteState r : first) {
            if (r.state() == State.UNAVAILABLE || r.state() == State.CHECKING) {
                down.add(new Down(r, r.retryInSeconds() == null ? null : now.plusSeconds(r.retryInSeconds())));
            }
        }
        down.sort(Comparator.comparing(Down::backAt, Comparator.nullsLast(Comparator.naturalOrder())));
        return new MyModelView(routes.model(), routes.sampled(), serving, usable, List.copyOf(down),
                alike ? families.subList(0, Math.min(1, families.size())) : families, !alike);
    }

    /**
     * Whether a route passed over under a request is worth naming to the key holder: not one that could never
     * have served it (a refused request's event names those, and so do events from before a served one left
     * them out).
     */
    public static boolean couldHaveServed(String reason) {
        ReasonCode code = ReasonCode.fromWire(reason);
        return code == null || !code.neverCouldServe();
    }

    /** A background check is probing one of its routes: the page polls until it ends. */
    public boolean checking() {
        return sections.stream().flatMap(f -> f.routes().stream()).anyMatch(r -> r.state() == State.CHECKING);
    }

    static List<MyModelView> of(List<RouteStates.ModelRoutes> models, Instant now) {
        return models.stream().map(m -> of(m, now)).toList();
    }
}
