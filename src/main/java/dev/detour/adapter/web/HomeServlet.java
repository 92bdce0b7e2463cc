package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.AccountListItem;
import dev.detour.admin.AccountsPageSource;
import dev.detour.admin.Dashboard;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The console home: the U-5 dashboard; its body is an htmx fragment polled for live refresh. */
public final class HomeServlet extends HttpServlet {
    private final transient AccountsPageSource accounts;
    private final transient Clock clock;
    private final transient View view;
    private final transient Dashboard dashboard;

    public HomeServlet(AccountsPageSource accounts, Clock clock, View view) {
        this(accounts, clock, view, null);
    }

    public HomeServlet(AccountsPageSource accounts, Clock clock, View view, Dashboard dashboard) {
        this.accounts = accounts;
        this.clock = clock;
        this.view = view;
        this.dashboard = dashboard;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<AccountListItem> list = accounts.list();
        long enabled = list.stream().filter(AccountListItem::enabled).count();
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "dashboard");
        model.put("accountCount", list.size());
        model.put("enabledCount", enabled);
        model.put("asOf", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
        if (dashboard != null) {
            model.put("dash", dashboard.summary(clock.instant()));
        }
        view.render(request, response, "console/home", model, "summary");
    }
}
