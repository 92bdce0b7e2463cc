package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import dev.detour.gateway.live.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * A console page that is one table plus a form: GET renders it; POST applies one change, makes this
 * instance see it at once (O-4) and redirects back (303); a rejected change re-renders the page with
 * the error (422) and changes nothing; an unknown row is 404.
 */
abstract class TablePageServlet extends HttpServlet {
    private final transient PoolSnapshot snapshot;
    private final transient View view;
    private final String path;
    private final String template;

    TablePageServlet(PoolSnapshot snapshot, View view, String path, String template) {
        this.snapshot = snapshot;
        this.view = view;
        this.path = path;
        this.template = template;
    }

    /** Applies the posted change; throws ValidationException for bad input, NotFoundException for a missing row. */
    abstract void apply(HttpServletRequest request);

    /** Puts the table's rows into the page model. */
    abstract void addRows(Map<String, Object> model);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            apply(request);
            snapshot.reload();
            response.setStatus(303);
            response.setHeader("Location", path);
        } catch (ValidationException e) {
            response.setStatus(422);
            render(request, response, e);
        } catch (NotFoundException | NumberFormatException e) {
            response.sendError(404);
        }
    }

    private void render(HttpServletRequest request, HttpServletResponse response, ValidationException error)
            throws IOException {
        Map<String, Object> model = new HashMap<>();
        addRows(model);
        model.put("error", error == null ? null : Map.of("code", error.code(), "message", error.getMessage()));
        view.render(request, response, template, model, null);
    }
}
