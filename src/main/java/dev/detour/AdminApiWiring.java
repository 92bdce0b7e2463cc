package dev.detour;

import dev.detour.adapter.api.AdminApiServlet;
import dev.detour.adapter.api.AdminAuthenticator;
import dev.detour.adapter.api.BearerTokenAuthenticator;
import dev.detour.adapter.api.PoolApi;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.metrics.MetricsServlet;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.admin.board.AccountStateView;
import dev.detour.admin.PoolTransfer;
import dev.detour.admin.SiteSettings;
import dev.detour.config.DetourConfig;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.List;

/** Admin API (SPEC §9) and /metrics: a bearer token, or a console session (+ CSRF on changes) for the API. */
final class AdminApiWiring {
    private AdminApiWiring() {
    }

    /** O-2: /metrics is open on loopback, otherwise it wants the admin token. */
    static HttpServlet metrics(DetourConfig config, GatewayWiring gateway, AdminToken token, Clock clock) {
        return new MetricsServlet(gateway.metrics(), clock, MetricsServlet.isLoopback(config.bind()),
                new BearerTokenAuthenticator(token), gateway.tokenFailures(), gateway.proxies());
    }

    /** W-2: export and import, for the admin API and the console's page. */
    static PoolApi pool(AdminWiring admins, AlertsWiring alerts, SiteSettings settings, Clock clock) {
        return new PoolApi(new PoolApi.Sources(admins.groups(), admins.accounts(), admins.repository(), settings,
                admins.prices(), admins.blocks(), admins.keys(), alerts.channels(), alerts::channelsIn),
                new PoolTransfer(admins.transactions(), admins.repository(), admins.sealer(), admins.audit(), settings,
                        clock), clock);
    }

    static AdminApiServlet api(AdminToken token, ConsoleSessionAuth consoleAuth, GatewayWiring gateway,
            AdminWiring admins, RecoveryWiring recovery, SiteSettings settings, Clock clock) {
        List<AdminAuthenticator> auth = List.of(new BearerTokenAuthenticator(token),
                request -> consoleAuth.signedInUser(request).filter(user ->
                        !ConsoleSessionAuth.isStateChanging(request) || consoleAuth.csrfValid(request)));
        return new AdminApiServlet(AdminAuthenticator.anyOf(auth), admins.groups(), admins.accounts(),
                new AccountStateView(clock, gateway.poolStore()::modelRows, gateway.leases()::inFlight),
                admins.audit(), admins.keys(), admins.requestLog(), gateway.snapshot()::reload, admins.models())
                .withSmartKeys(admins.prices(), admins.blocks()).withRecovery(recovery.admin())
                .withSettings(settings).withInstances(gateway.load().registry())
                .withThrottle(gateway.tokenFailures(), gateway.proxies());
    }
}
