package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.core.cluster.RegisteredInstance;
import dev.detour.gateway.live.InstanceRegistry;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** G-2 instances page: the registry's rows (live or gone, this instance marked) and this instance's share. */
public final class InstancesPageServlet extends HttpServlet {
    private final transient InstanceRegistry registry;
    private final transient View view;

    /** One row as the page shows it. */
    public record Row(String id, String address, String version, Instant startedAt, Instant lastSeenAt, boolean live,
            boolean self) {
    }

    public InstancesPageServlet(InstanceRegistry registry, View view) {
        this.registry = registry;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Instant now = registry.now();
        List<Row> rows = registry.instances().stream().map(i -> row(i, now)).toList();
        view.render(request, response, "instances/list", Map.of("activeNav", "instances", "instances", rows,
                "liveCount", registry.liveCount(), "pinned", registry.pinned()), null);
    }

    private Row row(RegisteredInstance i, Instant now) {
        return new Row(i.id(), i.address(), i.version(), i.startedAt(), i.lastSeenAt(), i.liveAt(now),
                i.id().equals(registry.selfId()));
    }
}
