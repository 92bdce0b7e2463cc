package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.view.View;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.KeyPatch;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * U-5 keys under {@code /keys/*}: the list, a create form whose answer shows the new key once (it is
 * stored only as a hash), and {@code /keys/{id}/enable|disable|delete}.
 */
public final class KeysServlet extends HttpServlet {
    private final ConsolePool pool;
    private final ConsoleSessionAuth auth;
    private final View view;

    public KeysServlet(ConsolePool pool, ConsoleSessionAuth auth, View view) {
        this.pool = pool;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        page(request, response, null, Map.of());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String actor = FieldErrors.actor(auth, request);
        String[] path = request.getPathInfo() == null ? new String[0] : request.getPathInfo().substring(1).split("/");
        try {
            if (path.length == 0 || path[0].isEmpty()) {
                ObjectNode body = Documents.JSON.createObjectNode().put("name", request.getParameter("name"));
                String owner = request.getParameter("owner_label");
                if (owner != null && !owner.isBlank()) {
                    body.put("owner_label", owner.strip());
                }
                KeyAdmin.CreatedKey created = pool.keys().create(actor, KeyPatch.parse(body));
                pool.afterChange().run();
                page(request, response, created.key(), Map.of());
                return;
            }
            long id = Long.parseLong(path[0]);
            switch (path.length == 2 ? path[1] : "") {
                case "enable", "disable" -> pool.keys().update(actor, id,
                        KeyPatch.parse(Documents.JSON.createObjectNode().put("enabled", path[1].equals("enable"))));
                case "delete" -> pool.keys().delete(actor, id);
                default -> throw new NotFoundException("no such key action");
            }
            pool.afterChange().run();
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", "/keys");
        } catch (ValidationException e) {
            response.setStatus(422);
            page(request, response, null, FieldErrors.of(request, e));
        } catch (NumberFormatException | NotFoundException e) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    private void page(HttpServletRequest request, HttpServletResponse response, String createdKey,
            Map<String, String> errors) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "keys");
        var keys = pool.keys().list();
        model.put("keys", keys);
        model.put("unreadableKeys", KeyAdmin.unreadable(keys)); // D-4
        model.put("createdKey", createdKey);
        model.put("errors", errors);
        view.render(request, response, "keys/list", model, null);
    }
}
