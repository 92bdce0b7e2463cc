package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.SiteSettings;
import dev.detour.core.ValidationException;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET/PUT /admin/api/settings}: the runtime settings; PUT takes any subset, all or nothing. */
final class SettingsApi {
    private final SiteSettings settings;

    SettingsApi(SiteSettings settings) {
        this.settings = settings;
    }

    ApiResponse handle(ApiRequest request) {
        if (request.segments().size() != 1) {
            throw ApiException.notFound();
        }
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(Documents.settings(settings.current()));
            case "PUT" -> ApiResponse.ok(Documents.settings(settings.update(changes(request.body().get()),
                    request.actor())));
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private static Map<String, String> changes(ObjectNode body) {
        Map<String, String> changes = new LinkedHashMap<>();
        body.fields().forEachRemaining(e -> {
            JsonNode value = e.getValue();
            if (!value.isIntegralNumber()) {
                throw new ValidationException("validation.settings." + e.getKey(), e.getKey(),
                        e.getKey() + " must be a whole number");
            }
            changes.put(e.getKey(), value.asText());
        });
        return changes;
    }
}
