package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.AccountListItem;
import dev.detour.admin.AccountsPageSource;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

/** The console home (dashboard placeholder, U-5 later); its summary card refreshes via htmx. */
public final class HomeServlet extends HttpServlet {
    private final AccountsPageSource accounts;
    private final Clock clock;
    private final View view;

    public HomeServlet(AccountsPageSource accounts, Clock clock, View view) {
        this.accounts = accounts;
        this.clock = clock;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<AccountListItem> list = accounts.list();
        long enabled = list.stream().filter(AccountListItem::enabled).count();
        Map<String, Object> model = Map.of(
                "activeNav", "dashboard",
                "accountCount", list.size(),
                "enabledCount", enabled,
                "asOf", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        view.render(request, response, "console/home", model, "summary");
    }
}
