package dev.detour.adapter.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AuditEntry;
import dev.detour.admin.AuditLog;
import dev.detour.core.ValidationException;

/** {@code GET /admin/api/audit?limit=N}: the newest audit entries (U-6), before/after as JSON. */
final class AuditApi {
    private final AuditLog audit;

    AuditApi(AuditLog audit) {
        this.audit = audit;
    }

    ApiResponse handle(ApiRequest request) {
        request.expectReadOfWhole();
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        audit.recent(limit(request.query().apply("limit"))).forEach(row -> items.add(render(row)));
        return ApiResponse.ok(page);
    }

    private static int limit(String raw) {
        try {
            return raw == null ? 100 : Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new ValidationException("validation.limit", "limit", "limit must be a whole number");
        }
    }

    private static ObjectNode render(AuditEntry row) {
        ObjectNode o = Documents.JSON.createObjectNode().put("id", row.id()).put("actor", row.actor())
                .put("action", row.action()).put("target_type", row.targetType()).put("target_id", row.targetId())
                .put("created_at", row.createdAt().toString());
        o.set("before", parse(row.beforeJson()));
        o.set("after", parse(row.afterJson()));
        return o;
    }

    private static JsonNode parse(String json) {
        try {
            return json == null ? null : Documents.JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Documents.JSON.getNodeFactory().textNode(json);
        }
    }
}
