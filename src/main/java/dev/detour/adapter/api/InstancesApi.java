package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.cluster.RegisteredInstance;
import dev.detour.gateway.live.InstanceRegistry;
import java.time.Instant;

/** {@code GET /admin/api/instances}: the instance registry (G-2), oldest first, live as this instance sees it now. */
final class InstancesApi {
    private final InstanceRegistry registry;

    InstancesApi(InstanceRegistry registry) {
        this.registry = registry;
    }

    ApiResponse handle(ApiRequest request) {
        request.expectReadOfWhole();
        Instant now = registry.now();
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        registry.instances().forEach(i -> items.add(render(i, now)));
        return ApiResponse.ok(page);
    }

    private static ObjectNode render(RegisteredInstance instance, Instant now) {
        return Documents.JSON.createObjectNode().put("id", instance.id()).put("address", instance.address())
                .put("version", instance.version()).put("started_at", instance.startedAt().toString())
                .put("last_seen_at", instance.lastSeenAt().toString()).put("live", instance.liveAt(now));
    }
}
