package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.NotFoundException;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.core.ValidationException;
import dev.detour.recovery.BatchTests;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * W-3 console screen {@code /recovery/batch}: a form that starts a batch test (a model, and a group or every
 * account), then the batch's live results table ({@code ?batch=…}; htmx polls its {@code batch-results}
 * fragment until every line finished) and the "recover those that passed" button.
 */
public final class BatchTestServlet extends HttpServlet {
    private final RecoveryAdmin recovery;
    private final ConsoleSessionAuth auth;
    private final View view;

    public BatchTestServlet(RecoveryAdmin recovery, ConsoleSessionAuth auth, View view) {
        this.recovery = recovery;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, Object> model = new HashMap<>();
        String id = request.getParameter("batch");
        if (id != null && !id.isBlank()) {
            try {
                model.put("batch", recovery.batch(id));
            } catch (NotFoundException e) {
                response.setStatus(HttpServletResponse.SC_NOT_FOUND);
                model.put("errorMessage", e.getMessage());
            }
        }
        render(request, response, model);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String actor = auth.signedInUser(request).orElse("console");
        Map<String, Object> model = new HashMap<>();
        try {
            if ("recover-passed".equals(request.getParameter("action"))) {
                String id = String.valueOf(request.getParameter("batch"));
                model.put("recoveredCount", recovery.recoverPassed(actor, id).size());
                model.put("batch", recovery.batch(id));
            } else {
                String group = request.getParameter("group");
                BatchTests.Batch batch = recovery.startBatch(actor, request.getParameter("model"), null,
                        group == null || group.isBlank() ? null : group);
                // PRG: the results live at their own address, which the table polls
                response.sendRedirect("/recovery/batch?batch=" + URLEncoder.encode(batch.id(), StandardCharsets.UTF_8));
                return;
            }
        } catch (ValidationException | NotFoundException e) {
            response.setStatus(422);
            model.put("errorMessage", e.getMessage());
        }
        render(request, response, model);
    }

    private void render(HttpServletRequest request, HttpServletResponse response, Map<String, Object> model)
            throws IOException {
        model.put("activeNav", "recovery");
        model.put("groups", recovery.groupNames());
        if (model.get("batch") instanceof BatchTests.Batch batch) {
            Map<String, Long> counts = new HashMap<>();
            for (BatchTests.Outcome o : BatchTests.Outcome.values()) {
                counts.put(o.wire(), batch.count(o));
            }
            model.put("counts", counts);
        }
        view.render(request, response, "recovery/batch", model, "batch-results");
    }
}
