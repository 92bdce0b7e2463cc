package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.BlockDraft;
import dev.detour.gateway.live.PoolSnapshot;
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
        blocks.create(Actors.of(request), new BlockDraft(request.getParameter("scope"), request.getParameter("value"),
                request.getParameter("reason"), request.getParameter("expires_at")));
    }

    @Override
    void addRows(Map<String, Object> model) {
        model.put("blocks", blocks.list());
    }
}
