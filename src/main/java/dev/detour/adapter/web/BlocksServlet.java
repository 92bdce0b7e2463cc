package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.Documents;
import dev.detour.gateway.PoolSnapshot;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;

/** S-10 block rules in the console ({@code /blocks}): list, add, remove. */
final class BlocksServlet extends TablePageServlet {
    private final transient BlockAdmin blocks;

    BlocksServlet(BlockAdmin blocks, PoolSnapshot snapshot, View view) {
        super(snapshot, view, "/blocks", "smart/blocks");
        this.blocks = blocks;
    }

    @Override
    void apply(HttpServletRequest request) {
        if (request.getParameter("delete") != null) {
            blocks.delete(Actors.of(request), Long.parseLong(request.getParameter("delete")));
            return;
        }
        var body = Documents.JSON.createObjectNode().put("scope", request.getParameter("scope"))
                .put("value", request.getParameter("value")).put("reason", request.getParameter("reason"))
                .put("expires_at", request.getParameter("expires_at"));
        blocks.create(Actors.of(request), body);
    }

    @Override
    void addRows(Map<String, Object> model) {
        model.put("blocks", blocks.list());
    }
}
