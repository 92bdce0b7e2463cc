package dev.detour.adapter.web;

import dev.detour.adapter.view.ConsoleNav;
import dev.detour.adapter.view.View;
import dev.detour.admin.AccountsPageSource;
import dev.detour.admin.ConsoleUsers;
import jakarta.servlet.http.HttpServlet;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The console's servlet routes (U-1): sign-in, language, assets open; every screen behind {@link ConsoleGate}. */
public final class ConsoleRoutes {
    private ConsoleRoutes() {
    }

    public static Map<String, HttpServlet> create(ConsoleSessionAuth auth, ConsoleUsers users,
            AccountsPageSource accounts, Clock clock, ConsolePool pool) {
        View view = new View(auth, new ConsoleNav(Set.of("/", "/accounts", "/groups", "/keys")));
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        routes.put("/login", new LoginServlet(users, auth, view));
        routes.put("/lang", new LanguageServlet());
        routes.put("/assets/*", new AssetsServlet());
        routes.put("", new ConsoleGate(new HomeServlet(accounts, clock, view), auth, view)); // "" = exactly "/"
        // U-2…U-5 pool screens ("/x/*" also matches "/x" itself)
        routes.put("/accounts", new ConsoleGate(new AccountsServlet(pool.board(), pool.modelTest() != null, view), auth, view));
        routes.put("/accounts/*", new ConsoleGate(new AccountEditServlet(pool, auth, view), auth, view));
        routes.put("/groups/*", new ConsoleGate(new GroupsServlet(pool, auth, view), auth, view));
        routes.put("/keys/*", new ConsoleGate(new KeysServlet(pool, auth, view), auth, view));
        routes.put("/logout", new ConsoleGate(new LogoutServlet(auth), auth, view));
        return routes;
    }
}
