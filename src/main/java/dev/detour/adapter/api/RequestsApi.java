package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.NotFoundException;
import dev.detour.admin.RequestLog;
import dev.detour.core.ValidationException;

/** {@code GET /admin/api/requests?key=&account=&model=&outcome=&limit=&cursor=} and {@code /requests/{request_id}}. */
final class RequestsApi {
    private final RequestLog log;

    RequestsApi(RequestLog log) {
        this.log = log;
    }

    ApiResponse handle(ApiRequest request) {
        if (!request.method().equals("GET")) {
            throw ApiException.methodNotAllowed();
        }
        if (request.segments().size() == 2) {
            String id = request.segments().get(1);
            return ApiResponse.ok(Documents.request(log.find(id)
                    .orElseThrow(() -> new NotFoundException("request " + id + " is not in the log"))));
        }
        if (request.segments().size() != 1) {
            throw ApiException.notFound();
        }
        RequestLog.Page page = log.page(number(request, "key"), number(request, "account"),
                request.query().apply("model"), request.query().apply("outcome"),
                number(request, "limit") == null ? null : number(request, "limit").intValue(),
                request.query().apply("cursor"));
        ObjectNode body = Documents.JSON.createObjectNode();
        ArrayNode items = body.putArray("items");
        page.items().forEach(e -> items.add(Documents.request(e)));
        body.put("next_cursor", page.nextCursor());
        return ApiResponse.ok(body);
    }

    private static Long number(ApiRequest request, String name) {
        String value = request.query().apply(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new ValidationException("validation." + name, name, name + " must be a number");
        }
    }
}
