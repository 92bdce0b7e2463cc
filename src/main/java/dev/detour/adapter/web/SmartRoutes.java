package dev.detour.adapter.web;

import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.adapter.view.ConsoleNav;
import dev.detour.adapter.view.View;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.usage.Breakdowns;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.RequestLog;
import dev.detour.gateway.Explanations;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.live.Leases;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.RouteStates;
import dev.detour.gateway.Router;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.recovery.RouteChecks;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Smart-key routes: the key holder's pages ({@code /my}, E-1) and JSON ({@code /v1/detour/*}, E-2),
 * and the console's key policy editor, prices and block rules (behind {@link ConsoleGate}).
 */
public final class SmartRoutes {
    public record Deps(ConsoleSessionAuth auth, Forwarder forwarder, Router router, PoolSnapshot snapshot,
            SmartKeyFacts smart, Leases leases, KeyAdmin keys, PriceAdmin prices, BlockAdmin blocks,
            RequestLog requests, RouteChecks checks, Clock clock, ClientAddress clientAddress,
            AuthThrottle keyFailures, Breakdowns usage) {
    }

    private SmartRoutes() {
    }

    public static Map<String, HttpServlet> create(Deps d) {
        View view = new View(d.auth(), new ConsoleNav(Set.of("/", "/accounts", "/groups", "/keys", "/requests", "/recovery", "/audit", "/settings")));
        Explanations explanations = new Explanations(d.smart());
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        // E-2: more specific than the proxy's /v1/*, so Jetty sends these here
        routes.put("/v1/detour/*", new DetourApiServlet(d.forwarder(), d.router(), d.snapshot(), explanations,
                d.requests(), d.clock(), d.clientAddress(), d.keyFailures()));
        routes.put("/my/*", new MyRoutesServlet(d, view, new MySessions(d.clock()), explanations,
                new RouteStates(d.router(), d.smart(), d.leases(), d.checks()::probing)));
        routes.put("/keys/*", new ConsoleGate(new KeyPolicyServlet(d.keys(), d.snapshot(), view), d.auth(), view));
        routes.put("/prices", new ConsoleGate(new PricesServlet(d.prices(), d.snapshot(), view), d.auth(), view));
        routes.put("/blocks", new ConsoleGate(new BlocksServlet(d.blocks(), d.snapshot(), view), d.auth(), view));
        return routes;
    }
}
