package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.Documents;
import dev.detour.admin.GroupAdmin;

/** {@code /admin/api/groups} and {@code /admin/api/groups/{id}}. */
final class GroupsApi {
    private final GroupAdmin groups;

    GroupsApi(GroupAdmin groups) {
        this.groups = groups;
    }

    ApiResponse handle(ApiRequest request) {
        if (request.segments().size() == 1) {
            return switch (request.method()) {
                case "GET" -> ApiResponse.ok(list());
                case "POST" -> ApiResponse.created(Documents.group(
                        groups.create(request.actor(), GroupJson.patch(request.body().get()))));
                default -> throw ApiException.methodNotAllowed();
            };
        }
        if (request.segments().size() != 2) {
            throw ApiException.notFound();
        }
        long id = request.id();
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(Documents.group(groups.get(id)));
            case "PUT" -> ApiResponse.ok(Documents.group(
                    groups.update(request.actor(), id, GroupJson.patch(request.body().get()))));
            case "DELETE" -> {
                groups.delete(request.actor(), id);
                yield ApiResponse.noContent();
            }
            default -> throw ApiException.methodNotAllowed();
        };
    }

    private ObjectNode list() {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        groups.list().forEach(g -> items.add(Documents.group(g)));
        return page;
    }
}
