package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.port.AccountListItem;
import dev.detour.admin.port.AccountsPageSource;
import dev.detour.admin.usage.Breakdowns;
import dev.detour.admin.usage.Dashboard;
import dev.detour.admin.port.UsageStats;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The console home: the U-5 dashboard, its body an htmx fragment polled for live refresh; below it the U-8
 * breakdowns over the window chosen by {@code ?window=1h|24h|7d|30d} (default 24h), computed only for the whole page.
 */
public final class HomeServlet extends HttpServlet {
    private final transient AccountsPageSource accounts;
    private final transient Clock clock;
    private final transient View view;
    private final transient Dashboard dashboard;
    private final transient Breakdowns breakdowns;

    public HomeServlet(AccountsPageSource accounts, Clock clock, View view) {
        this(accounts, clock, view, null, null);
    }

    public HomeServlet(AccountsPageSource accounts, Clock clock, View view, Dashboard dashboard,
            Breakdowns breakdowns) {
        this.accounts = accounts;
        this.clock = clock;
        this.view = view;
        this.dashboard = dashboard;
        this.breakdowns = breakdowns;
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
        if (breakdowns != null && !View.isHtmx(request)) {
            Breakdowns.Span span = Breakdowns.Span.of(request.getParameter("window")).orElse(Breakdowns.Span.DAY);
            model.put("spans", Breakdowns.Span.values());
            model.put("report", breakdowns.report(span, clock.instant(), null, EnumSet.allOf(UsageStats.Dimension.class)));
            model.put("money", Money.SHOWN);
        }
        view.render(request, response, "console/home", model, "summary");
    }
}
