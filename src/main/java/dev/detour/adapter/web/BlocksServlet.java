package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.Documents;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import dev.detour.gateway.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/** S-10 block rules in the console ({@code /blocks}): list, add, remove. */
final class BlocksServlet extends HttpServlet {
    private final transient BlockAdmin blocks;
    private final transient PoolSnapshot snapshot;
    private final transient View view;

    BlocksServlet(BlockAdmin blocks, PoolSnapshot snapshot, View view) {
        this.blocks = blocks;
        this.snapshot = snapshot;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        try {
            if (request.getParameter("delete") != null) {
                blocks.delete(Actors.of(request), Long.parseLong(request.getParameter("delete")));
            } else {
                var body = Documents.JSON.createObjectNode().put("scope", request.getParameter("scope"))
                        .put("value", request.getParameter("value")).put("reason", request.getParameter("reason"))
                        .put("expires_at", request.getParameter("expires_at"));
                blocks.create(Actors.of(request), body);
            }
            snapshot.reload();
            response.setStatus(303);
            response.setHeader("Location", "/blocks");
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
        model.put("blocks", blocks.list());
        model.put("error", error == null ? null : Map.of("code", error.code(), "message", error.getMessage()));
        view.render(request, response, "smart/blocks", model, null);
    }
}
