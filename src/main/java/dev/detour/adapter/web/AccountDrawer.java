package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.ModelTestAction;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.Platform;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Renders the U-4 drawer ({@code accounts/edit}): the page model for create and for each tab. */
final class AccountDrawer {
    private static final String SAVED = "detour.drawer.saved";
    private static final List<String> PLATFORMS = Arrays.stream(Platform.values()).map(Platform::wire).toList();
    private final ConsolePool pool;
    private final View view;

    AccountDrawer(ConsolePool pool, View view) {
        this.pool = pool;
        this.view = view;
    }

    void createPage(HttpServletRequest request, HttpServletResponse response, Map<String, String> form,
            List<ModelMapping> rows, Map<String, String> errors) throws IOException {
        Map<String, Object> model = base(errors);
        model.put("creating", true);
        model.put("tab", "basics");
        model.put("form", form);
        model.put("mappingRows", rows != null ? rows : AccountFormValues.mappingRows(List.of()));
        render(request, response, model, "drawer", errors);
    }

    void editPage(HttpServletRequest request, HttpServletResponse response, StoredAccount stored, String tab,
            Map<String, String> typed, List<ModelMapping> rows, Map<String, String> errors,
            ModelTestAction.TestResult testResult) throws IOException {
        Map<String, Object> model = base(errors);
        model.put("creating", false);
        model.put("tab", tab);
        model.put("account", stored);
        model.put("form", typed != null ? typed : AccountFormValues.of(stored));
        model.put("mappingRows", rows != null ? rows : AccountFormValues.mappingRows(stored.config().mappings().entries()));
        model.put("saved", ("1".equals(request.getParameter("saved")) || request.getAttribute(SAVED) != null)
                && errors.isEmpty());
        model.put("testResult", testResult);
        statusSection(model, stored);
        render(request, response, model, "drawer", errors);
    }

    /** An htmx save: the drawer fragment of the saved account right away (no redirect), marked saved. */
    void savedFragment(HttpServletRequest request, HttpServletResponse response, long accountId, String tab)
            throws IOException {
        request.setAttribute(SAVED, Boolean.TRUE);
        editPage(request, response, pool.accounts().get(accountId), tab, null, null, Map.of(), null);
    }

    /** Only the 模型状态 section (htmx swap after a pause / resume / clear). */
    void modelStatus(HttpServletRequest request, HttpServletResponse response, StoredAccount stored) throws IOException {
        Map<String, Object> model = base(Map.of());
        model.put("account", stored);
        statusSection(model, stored);
        view.render(request, response, "accounts/edit", model, "model-status");
    }

    private void statusSection(Map<String, Object> model, StoredAccount stored) {
        model.put("knownModels", pool.board().knownModels(stored));
        model.put("card", pool.board().card(stored.id()).orElse(null));
        model.put("canTest", pool.modelTest() != null);
    }

    private Map<String, Object> base(Map<String, String> errors) {
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "accounts");
        model.put("errors", errors);
        model.put("groups", pool.board().groups());
        model.put("platforms", PLATFORMS);
        return model;
    }

    private void render(HttpServletRequest request, HttpServletResponse response, Map<String, Object> model,
            String fragment, Map<String, String> errors) throws IOException {
        if (!errors.isEmpty()) {
            response.setStatus(422);
        }
        view.render(request, response, "accounts/edit", model, fragment);
    }
}
