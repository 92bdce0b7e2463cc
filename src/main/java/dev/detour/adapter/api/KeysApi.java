package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.KeyPatch;

/** {@code /admin/api/keys} and {@code /admin/api/keys/{id}}; POST returns the key, the only time it is shown. */
final class KeysApi {
    private final KeyAdmin keys;

    KeysApi(KeyAdmin keys) {
        this.keys = keys;
    }

    ApiResponse handle(ApiRequest request) {
        if (request.segments().size() == 1) {
            return switch (request.method()) {
                case "GET" -> ApiResponse.ok(list());
                case "POST" -> {
                    KeyAdmin.CreatedKey created = keys.create(request.actor(), KeyPatch.parse(request.body().get()));
                    yield ApiResponse.created(Documents.key(created.stored()).put("key", created.key()));
                }
                default -> throw ApiException.methodNotAllowed();
            };
        }
        if (request.segments().size() == 3 && request.segments().get(2).equals("rotate")) {
            if (!request.method().equals("POST")) {
                throw ApiException.methodNotAllowed();
            }
            // K-1: the new secret is shown once, like at creation
            KeyAdmin.CreatedKey rotated = keys.rotate(request.actor(), request.id());
            return ApiResponse.ok(Documents.key(rotated.stored()).put("key", rotated.key()));
        }
        if (request.segments().size() != 2) {
            throw ApiException.notFound();
        }
        long id = request.id();
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(Documents.key(keys.get(id)));
            case "PUT" -> ApiResponse.ok(Documents.key(keys.update(request.actor(), id,
                    KeyPatch.parse(request.body().get()))));
            case "DELETE" -> {
                keys.delete(request.actor(), id);
                yield ApiResponse.noContent();
            }
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private ObjectNode list() {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        keys.list().forEach(k -> items.add(Documents.key(k)));
        return page;
    }
}
