package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountGroup;
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
                case "POST" -> ApiResponse.created(withHalt(
                        groups.create(request.actor(), GroupJson.patch(request.body().get()))));
                default -> throw ApiException.methodNotAllowed();
            };
        }
        if (request.segments().size() != 2) {
            throw ApiException.notFound();
        }
        long id = request.id();
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(withHalt(groups.get(id)));
            case "PUT" -> ApiResponse.ok(withHalt(
                    groups.update(request.actor(), id, GroupJson.patch(request.body().get()))));
            case "DELETE" -> {
                groups.delete(request.actor(), id);
                yield ApiResponse.noContent();
            }
            default -> throw ApiException.methodNotAllowed();
        };
    }

    /** S-9: the halt as operators need it: time remaining and the reason of the current halt. */
    private ObjectNode withHalt(AccountGroup g) {
        long remaining = groups.haltedRemainingSeconds(g);
        ObjectNode o = Documents.group(g).put("halted_remaining_s", remaining);
        if (remaining > 0) {
            o.put("halt_reason", g.haltReason());
        } else {
            o.putNull("halt_reason");
        }
        return o;
    }

    private ObjectNode list() {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        groups.list().forEach(g -> items.add(withHalt(g)));
        return page;
    }
}
