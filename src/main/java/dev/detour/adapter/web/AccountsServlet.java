package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.board.AccountBoard;
import dev.detour.admin.board.AccountCard;
import dev.detour.admin.board.BoardFilter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * U-2 accounts page: filters, search, the table. htmx polls the same URL every 5 s and gets only
 * the {@code account-rows} fragment (the tbody), so badges refresh without redrawing the table.
 */
public final class AccountsServlet extends HttpServlet {
    private final AccountBoard board;
    private final boolean canTest;
    private final View view;

    public AccountsServlet(AccountBoard board, boolean canTest, View view) {
        this.board = board;
        this.canTest = canTest;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        BoardFilter filter = new BoardFilter(request.getParameter("group"), request.getParameter("status"),
                "on".equals(request.getParameter("problems")), request.getParameter("q"));
        List<AccountCard> cards = board.cards(filter);
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "accounts");
        model.put("accounts", cards);
        model.put("filter", filter);
        model.put("groups", board.groups());
        model.put("canTest", canTest);
        model.put("pollUrl", View.requestPath(request));
        // D-4: the master-key banner sits outside the polled rows, so only a full page asks
        model.put("keyBanner", !View.isHtmx(request) && board.anyKeyUnreadable());
        view.render(request, response, "accounts/list", model, "account-rows");
    }
}
