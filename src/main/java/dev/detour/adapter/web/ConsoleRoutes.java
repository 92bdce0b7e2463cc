package dev.detour.adapter.web;

import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.view.ConsoleNav;
import dev.detour.adapter.view.View;
import dev.detour.admin.port.AccountsPageSource;
import dev.detour.alerts.AlertChannels;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.gateway.live.InstanceRegistry;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The console's servlet routes (U-1): sign-in, language, assets open; every screen behind {@link ConsoleGate}. */
public final class ConsoleRoutes {
    /** Screens that are live links in the navigation. */
    static final Set<String> NAV_PATHS = Set.of("/", "/accounts", "/recovery", "/instances", "/alerts");

    private ConsoleRoutes() {
    }

    /** the recovery screen and W-3's batch test (their own routes so the recovery wiring stays in one place). */
    public static Map<String, HttpServlet> recovery(ConsoleSessionAuth auth, RecoveryAdmin recovery) {
        View view = new View(auth, new ConsoleNav(NAV_PATHS));
        return Map.of("/recovery", new ConsoleGate(new RecoveryServlet(recovery, auth, view), auth, view),
                "/recovery/batch", new ConsoleGate(new BatchTestServlet(recovery, auth, view), auth, view));
    }

    /** G-2: the instances screen (its own route: the registry is wired with the load state). */
    public static Map<String, HttpServlet> instances(ConsoleSessionAuth auth, InstanceRegistry registry) {
        View view = new View(auth, new ConsoleNav(NAV_PATHS));
        return Map.of("/instances", new ConsoleGate(new InstancesPageServlet(registry, view), auth, view));
    }

    /** W-1: the alerts screen (channels, send test, the delivery log). */
    public static Map<String, HttpServlet> alerts(ConsoleSessionAuth auth, AlertChannels alerts) {
        View view = new View(auth, new ConsoleNav(NAV_PATHS));
        return Map.of("/alerts", new ConsoleGate(new AlertsPageServlet(alerts, auth, view), auth, view));
    }

    /** W-2: the import / export screen (linked from the settings page). */
    public static Map<String, HttpServlet> pool(ConsoleSessionAuth auth, dev.detour.adapter.api.PoolApi pool) {
        View view = new View(auth, new ConsoleNav(NAV_PATHS));
        return Map.of("/pool", new ConsoleGate(new PoolPageServlet(pool, auth, view), auth, view));
    }

    /**
     * @param pool      the accounts / groups / keys screens (U-2…U-5)
     * @param operating the request log / audit / settings screens and the dashboard, or null for the shell only
     * @param clientAddress who is signing in (X-3 throttles by it; the trusted-proxy client address, O-3)
     */
    public static Map<String, HttpServlet> create(ConsoleSessionAuth auth, ConsoleUsers users,
            AccountsPageSource accounts, Clock clock, ConsolePool pool, OperatingPages operating,
            ClientAddress clientAddress) {
        Set<String> available = new java.util.HashSet<>(NAV_PATHS);
        available.addAll(Set.of("/groups", "/keys", "/prices", "/blocks"));
        if (operating != null) {
            available.addAll(OperatingPages.PATHS);
        }
        View view = new View(auth, new ConsoleNav(available));
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        routes.put("/login", new LoginServlet(users, auth, view, clientAddress));
        routes.put("/lang", new LanguageServlet());
        routes.put("/assets/*", new AssetsServlet());
        routes.put("", new ConsoleGate(new HomeServlet(accounts, clock, view,
                operating == null ? null : operating.dashboard(), operating == null ? null : operating.breakdowns()),
                auth, view)); // "" = exactly "/"
        // U-2…U-5 pool screens ("/x/*" also matches "/x" itself)
        routes.put("/accounts", new ConsoleGate(new AccountsServlet(pool.board(), pool.modelTest() != null, view), auth, view));
        routes.put("/accounts/*", new ConsoleGate(new AccountEditServlet(pool, auth, view), auth, view));
        routes.put("/groups/*", new ConsoleGate(new GroupsServlet(pool, auth, view), auth, view));
        routes.put("/keys/*", new ConsoleGate(new KeysServlet(pool, auth, view), auth, view));
        if (operating != null) {
            routes.putAll(operating.routes(auth, view));
        }
        routes.put("/logout", new ConsoleGate(new LogoutServlet(auth), auth, view));
        return routes;
    }
}
