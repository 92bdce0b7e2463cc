package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.ChannelDraft;
import dev.detour.alerts.ChannelKind;
import dev.detour.alerts.Delivery;
import dev.detour.core.alerts.AlertKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W-1: {@code /admin/api/alerts/channels} (CRUD, {@code POST …/{id}/test}) and
 * {@code /admin/api/alerts/deliveries} (paged, newest first). Secrets go in by their field names and
 * come back only as {@code <field>_hint} ("…abcd").
 */
final class AlertsApi {
    private final AlertChannels alerts;

    AlertsApi(AlertChannels alerts) {
        this.alerts = alerts;
    }

    ApiResponse handle(ApiRequest request) {
        List<String> s = request.segments();
        if (s.size() == 2 && s.get(1).equals("deliveries")) {
            if (!request.method().equals("GET")) {
                throw ApiException.methodNotAllowed();
            }
            return ApiResponse.ok(deliveries(request));
        }
        if (s.size() < 2 || !s.get(1).equals("channels")) {
            throw ApiException.notFound();
        }
        if (s.size() == 2) {
            return switch (request.method()) {
                case "GET" -> ApiResponse.ok(list());
                case "POST" -> ApiResponse.created(channel(alerts.create(request.actor(), draft(request))));
                default -> throw ApiException.methodNotAllowed();
            };
        }
        long id = request.id(2);
        if (s.size() == 4 && s.get(3).equals("test")) {
            if (!request.method().equals("POST")) {
                throw ApiException.methodNotAllowed();
            }
            return ApiResponse.ok(delivery(alerts.test(id)));
        }
        if (s.size() != 3) {
            throw ApiException.notFound();
        }
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(channel(alerts.get(id)));
            case "PUT" -> ApiResponse.ok(channel(alerts.update(request.actor(), id, draft(request))));
            case "DELETE" -> {
                alerts.delete(request.actor(), id);
                yield ApiResponse.noContent();
            }
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private static ChannelDraft draft(ApiRequest request) {
        JsonFields f = new JsonFields(request.body().get(), "");
        Map<String, String> fields = new LinkedHashMap<>();
        for (ChannelKind kind : ChannelKind.values()) {
            for (String name : kind.secrets()) {
                put(f, name, fields);
            }
            for (String name : kind.settings()) {
                put(f, name, fields);
            }
        }
        return new ChannelDraft(f.text("name", "validation.name"), f.text("kind", "validation.kind"),
                f.bool("enabled", "validation.enabled"),
                f.has("events") ? f.texts("events", "validation.events") : null,
                f.integer("suppress_seconds", "validation.suppress_seconds"), fields);
    }

    /** A field of any kind, as text (a port may come as a number); null removes it. */
    private static void put(JsonFields f, String name, Map<String, String> fields) {
        if (!f.has(name) || fields.containsKey(name)) {
            return;
        }
        var node = f.node(name);
        if (node.isNull()) {
            fields.put(name, null);
        } else if (node.isTextual() || node.isIntegralNumber()) {
            fields.put(name, node.asText());
        } else {
            throw f.wrong("validation." + name, name, "a string");
        }
    }

    private ObjectNode list() {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        alerts.list().forEach(c -> items.add(channel(c)));
        return page;
    }

    static ObjectNode channel(AlertChannel c) {
        ObjectNode o = Documents.JSON.createObjectNode().put("id", c.id()).put("name", c.name())
                .put("kind", c.kind().wire()).put("enabled", c.enabled())
                .put("suppress_seconds", c.suppress().toSeconds());
        ArrayNode events = o.putArray("events");
        c.events().stream().map(AlertKind::wire).sorted().forEach(events::add);
        c.kind().settings().forEach(name -> o.put(name, c.setting(name)));
        c.kind().secrets().forEach(name -> o.put(name + "_hint", c.secretHints().get(name)));
        return o;
    }

    private ObjectNode deliveries(ApiRequest request) {
        int offset = number(request.query().apply("offset"), 0);
        int limit = Math.max(1, Math.min(500, number(request.query().apply("limit"), 50)));
        ObjectNode page = Documents.JSON.createObjectNode();
        page.put("total", alerts.deliveryCount()).put("offset", offset).put("limit", limit);
        ArrayNode items = page.putArray("items");
        alerts.deliveries(offset, limit).forEach(d -> items.add(delivery(d)));
        return page;
    }

    static ObjectNode delivery(Delivery d) {
        ObjectNode o = Documents.JSON.createObjectNode().put("id", d.id()).put("channel_id", d.channelId())
                .put("channel", d.channelName()).put("event", d.event().wire()).put("object", d.object())
                .put("title", d.title()).put("text", d.text()).put("occurred_at", d.occurredAt().toString())
                .put("attempts", d.attempts()).put("status", d.status().wire()).put("error", d.error())
                .put("next_retry_at", d.nextRetryAt() == null ? null : d.nextRetryAt().toString())
                .put("updated_at", d.updatedAt().toString());
        if (d.httpStatus() == null) {
            o.putNull("http_status");
        } else {
            o.put("http_status", d.httpStatus());
        }
        return o;
    }

    private static int number(String value, int fallback) {
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Math.max(0, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new ApiException(400, "request.invalid_query", "offset and limit must be whole numbers");
        }
    }
}
