package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.NotFoundException;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.core.ValidationException;
import dev.detour.recovery.ModelTestResult;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * R-6 console screen: the accounts that need recovery, the machinery's status, and the one-click
 * operations (test now, recover all, pause/resume probes). Every form posts here with an
 * {@code action}; the answer is the page (or, for htmx, its {@code recovery-panel} fragment).
 */
public final class RecoveryServlet extends HttpServlet {
    private final RecoveryAdmin recovery;
    private final ConsoleSessionAuth auth;
    private final View view;

    public RecoveryServlet(RecoveryAdmin recovery, ConsoleSessionAuth auth, View view) {
        this.recovery = recovery;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, new HashMap<>());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String actor = auth.signedInUser(request).orElse("console");
        Map<String, Object> model = new HashMap<>();
        try {
            switch (String.valueOf(request.getParameter("action"))) {
                case "test" -> model.put("testResult", test(request, actor));
                case "recover-all" -> model.put("recoveredCount", recovery.recoverAll(actor).size());
                case "pause" -> recovery.pauseProbes(actor);
                case "resume" -> recovery.resumeProbes(actor);
                default -> response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            }
        } catch (ValidationException | NotFoundException e) {
            response.setStatus(422);
            model.put("errorMessage", e.getMessage());
        }
        render(request, response, model);
    }

    private ModelTestResult test(HttpServletRequest request, String actor) {
        long id;
        try {
            id = Long.parseLong(String.valueOf(request.getParameter("account")));
        } catch (NumberFormatException e) {
            throw new ValidationException("validation.account", "account", "choose an account to test");
        }
        return recovery.test(actor, id, request.getParameter("model"));
    }

    private void render(HttpServletRequest request, HttpServletResponse response, Map<String, Object> model)
            throws IOException {
        model.put("activeNav", "recovery");
        model.put("status", recovery.status());
        model.put("accounts", recovery.accountsInNeed());
        view.render(request, response, "recovery/index", model, "recovery-panel");
    }
}
