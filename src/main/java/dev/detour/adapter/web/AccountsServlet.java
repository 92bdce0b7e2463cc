package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.AccountsPageSource;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/** U-2 accounts list (shell): the table of {@link AccountsPageSource}; the rows are an htmx fragment. */
public final class AccountsServlet extends HttpServlet {
    private final AccountsPageSource accounts;
    private final View view;

    public AccountsServlet(AccountsPageSource accounts, View view) {
        this.accounts = accounts;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, Object> model = Map.of("activeNav", "accounts", "accounts", accounts.list());
        view.render(request, response, "accounts/list", model, "account-rows");
    }
}
