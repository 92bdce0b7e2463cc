package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.ConflictException;
import dev.detour.admin.ModelTestAction;
import dev.detour.admin.NotFoundException;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * U-4 edit drawer under {@code /accounts/*}: {@code new}, {@code {id}/edit?tab=…}, one POST per tab
 * ({@code basics}, {@code failure}, {@code recovery}, {@code breaker}, {@code compat}) through AccountAdmin, the
 * 模型状态 actions ({@code {id}/models/pause|resume|clear|clear-all}, form field {@code model}) through
 * ModelAdmin, and {@code {id}/test}. Saved → 303 back to the tab (htmx: the drawer fragment, saved);
 * invalid → 422 with the error next to its field. htmx model actions get only the model-status fragment back.
 */
public final class AccountEditServlet extends HttpServlet {
    private static final Map<String, Function<HttpServletRequest, AccountPatch>> TABS = Map.of(
            "basics", AccountForms::basics, "failure", AccountForms::failurePolicy,
            "recovery", AccountForms::recovery, "breaker", AccountForms::breaker, "compat", AccountForms::compat);
    private static final Map<String, List<String>> CHECKBOXES = Map.of(
            "basics", List.of("enabled", "protocol.chat_completions", "protocol.responses", "protocol.messages"),
            "failure", List.of("failure_policy.cooldown_enabled", "failure_policy.error_status_enabled",
                    "failure_policy.honor_retry_after"),
            "recovery", List.of(), "breaker", List.of("breaker.enabled"), "compat", List.of("bridge_reasoning"));

    private final ConsolePool pool;
    private final ConsoleSessionAuth auth;
    private final AccountDrawer drawer;

    public AccountEditServlet(ConsolePool pool, ConsoleSessionAuth auth, View view) {
        this.pool = pool;
        this.auth = auth;
        this.drawer = new AccountDrawer(pool, view);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<String> path = segments(request);
        if (path.equals(List.of("new"))) {
            drawer.createPage(request, response, AccountFormValues.blank(), null, Map.of());
        } else if (path.size() <= 2 && !path.isEmpty() && (path.size() == 1 || path.get(1).equals("edit"))) {
            withAccount(response, path.get(0), stored -> drawer.editPage(request, response, stored,
                    tab(request.getParameter("tab")), null, null, Map.of(), null));
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        List<String> path = segments(request);
        if (path.equals(List.of("new"))) {
            create(request, response);
        } else if (path.size() == 2 && TABS.containsKey(path.get(1))) {
            withAccount(response, path.get(0), stored -> save(request, response, stored, path.get(1)));
        } else if (path.size() == 3 && path.get(1).equals("models")) {
            withAccount(response, path.get(0), stored -> modelAction(request, response, stored, path.get(2)));
        } else if (path.size() == 2 && path.get(1).equals("test") && pool.modelTest() != null) {
            withAccount(response, path.get(0), stored -> test(request, response, stored));
        } else {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    private void create(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> typed = AccountFormValues.submitted(AccountFormValues.blank(), request, CHECKBOXES.get("basics"));
        try {
            StoredAccount created = pool.accounts().create(FieldErrors.actor(auth, request), AccountForms.basics(request));
            pool.afterChange().run();
            seeOther(response, "/accounts/" + created.id() + "/edit?tab=basics&saved=1");
        } catch (ValidationException e) {
            drawer.createPage(request, response, typed, AccountFormValues.submittedRows(request), FieldErrors.of(request, e));
        } catch (ConflictException e) {
            drawer.createPage(request, response, typed, AccountFormValues.submittedRows(request), FieldErrors.of(request, e));
        }
    }

    private void save(HttpServletRequest request, HttpServletResponse response, StoredAccount stored, String tab)
            throws IOException {
        try {
            pool.accounts().update(FieldErrors.actor(auth, request), stored.id(), TABS.get(tab).apply(request));
            pool.afterChange().run();
            if (View.isHtmx(request)) {
                drawer.savedFragment(request, response, stored.id(), tab); // the side panel re-renders in place
            } else {
                seeOther(response, "/accounts/" + stored.id() + "/edit?tab=" + tab + "&saved=1");
            }
        } catch (ValidationException | ConflictException e) {
            Map<String, String> errors = e instanceof ValidationException v ? FieldErrors.of(request, v)
                    : FieldErrors.of(request, (ConflictException) e);
            Map<String, String> typed = AccountFormValues.submitted(AccountFormValues.of(stored), request, CHECKBOXES.get(tab));
            drawer.editPage(request, response, stored, tab, typed,
                    tab.equals("basics") ? AccountFormValues.submittedRows(request) : null, errors, null);
        }
    }

    private void modelAction(HttpServletRequest request, HttpServletResponse response, StoredAccount stored,
            String action) throws IOException {
        String actor = FieldErrors.actor(auth, request);
        String model = request.getParameter("model");
        try {
            switch (action) {
                case "pause" -> pool.models().pause(actor, stored.id(), model);
                case "resume" -> pool.models().resume(actor, stored.id(), model);
                case "clear" -> pool.models().clear(actor, stored.id(), model);
                case "clear-all" -> pool.models().clearAll(actor, stored.id());
                default -> {
                    response.sendError(HttpServletResponse.SC_NOT_FOUND);
                    return;
                }
            }
        } catch (ValidationException e) {
            response.sendError(422, e.getMessage());
            return;
        }
        pool.afterChange().run();
        if (View.isHtmx(request)) {
            drawer.modelStatus(request, response, stored);
        } else {
            seeOther(response, "/accounts/" + stored.id() + "/edit?tab=failure");
        }
    }

    private void test(HttpServletRequest request, HttpServletResponse response, StoredAccount stored) throws IOException {
        ModelTestAction.TestResult result = pool.modelTest().test(FieldErrors.actor(auth, request), stored.id(),
                String.valueOf(request.getParameter("model")));
        pool.afterChange().run();
        drawer.editPage(request, response, stored, "failure", null, null, Map.of(), result);
    }

    private interface AccountAction {
        void run(StoredAccount stored) throws IOException;
    }

    private void withAccount(HttpServletResponse response, String id, AccountAction action) throws IOException {
        StoredAccount stored;
        try {
            stored = pool.accounts().get(Long.parseLong(id));
        } catch (NumberFormatException | NotFoundException e) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        action.run(stored);
    }

    private static String tab(String raw) {
        return raw != null && TABS.containsKey(raw) ? raw : "basics";
    }

    private static List<String> segments(HttpServletRequest request) {
        String info = request.getPathInfo();
        return info == null ? List.of() : Arrays.stream(info.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    private static void seeOther(HttpServletResponse response, String location) {
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", location);
    }
}
