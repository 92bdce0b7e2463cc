package dev.detour;

import dev.detour.adapter.crypto.PasswordHasher;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisAccountsPageSource;
import dev.detour.adapter.db.MyBatisAdminUsers;
import dev.detour.adapter.db.MyBatisEventNames;
import dev.detour.adapter.db.MyBatisRequestStats;
import dev.detour.adapter.db.MyBatisUsageStats;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.adapter.web.ConsolePool;
import dev.detour.adapter.web.ConsoleRoutes;
import dev.detour.adapter.web.ConsoleSessionAuth;
import dev.detour.adapter.web.OperatingPages;
import dev.detour.adapter.web.PathSplitServlet;
import dev.detour.adapter.web.SmartRoutes;
import dev.detour.admin.board.AccountBoard;
import dev.detour.admin.usage.Breakdowns;
import dev.detour.admin.ConsoleModelTest;
import dev.detour.admin.ConsoleUsers;
import dev.detour.admin.usage.Dashboard;
import dev.detour.admin.SiteSettings;
import dev.detour.config.DetourConfig;
import dev.detour.demo.DemoCredentials;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** U-1 console: first-run admin, session + CSRF, and the console's pages (pool, operating, smart keys). */
final class ConsoleWiring {
    private ConsoleWiring() {
    }

    /** The console's users, with the first admin created (demo mode keeps its own first-run password). */
    static ConsoleUsers users(DetourConfig config, Database database, Optional<DemoCredentials> demoLogin,
            Clock clock) {
        ConsoleUsers users = new ConsoleUsers(new MyBatisAdminUsers(database), new PasswordHasher(), clock,
                AuthThrottle.standard("console password", clock));
        users.ensureFirstAdmin(demoLogin.map(DemoCredentials::firstAdminPassword).orElse(config.adminPassword()));
        return users;
    }

    /** Sign-in, dashboard, pool and operating pages (R-4: the test button runs through recovery). */
    static Map<String, HttpServlet> pages(ConsoleSessionAuth auth, ConsoleUsers users, Database database,
            GatewayWiring gateway, AdminWiring admins, RecoveryWiring recovery, SiteSettings settings, Clock clock) {
        ConsolePool pool = new ConsolePool(admins.accounts(), admins.groups(), admins.keys(), admins.models(),
                new AccountBoard(admins.accounts(), admins.groups(), admins.models(), gateway.leases()::inFlight,
                        clock),
                new ConsoleModelTest(recovery.admin()), gateway.snapshot()::reload);
        return ConsoleRoutes.create(auth, users, new MyBatisAccountsPageSource(database), clock, pool,
                new OperatingPages(admins.requestLog(), admins.audit(), settings,
                        new Dashboard(new MyBatisRequestStats(database), gateway.snapshot(), gateway.queue()::figures),
                        breakdowns(database), new MyBatisEventNames(database)),
                gateway.proxies());
    }

    /** U-8 / U-9 usage over the request log, with names. */
    static Breakdowns breakdowns(Database database) {
        return new Breakdowns(new MyBatisUsageStats(database), new MyBatisEventNames(database));
    }

    /** Smart-key pages; /keys/* is shared: the key list (console) and the per-key policy editor and rotate. */
    static Map<String, HttpServlet> smartPages(ConsoleSessionAuth auth, Map<String, HttpServlet> consolePages,
            Database database, GatewayWiring gateway, AdminWiring admins, RecoveryWiring recovery, Clock clock) {
        Map<String, HttpServlet> smart = SmartRoutes.create(new SmartRoutes.Deps(auth, gateway.forwarder(),
                gateway.router(), gateway.snapshot(), gateway.smartKeys(), gateway.leases(), admins.keys(),
                admins.prices(), admins.blocks(), admins.requestLog(), recovery.keyChecks(), clock, gateway.proxies(),
                gateway.keyFailures(), breakdowns(database)));
        smart.put("/keys/*", new PathSplitServlet(Pattern.compile("^/[0-9]+/(policy|rotate)/?$"),
                smart.get("/keys/*"), consolePages.get("/keys/*")));
        return smart;
    }
}
