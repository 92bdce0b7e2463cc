package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.board.AccountStateView;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.port.StoredAccount;
import java.util.List;

/** {@code /admin/api/accounts} and {@code /admin/api/accounts/{id}}: config + hint + computed state. */
final class AccountsApi {
    private final AccountAdmin accounts;
    private final AccountStateView states;
    private final ModelAdmin models;

    AccountsApi(AccountAdmin accounts, AccountStateView states, ModelAdmin models) {
        this.accounts = accounts;
        this.states = states;
        this.models = models;
    }

    ApiResponse handle(ApiRequest request) {
        if (request.segments().size() == 1) {
            return switch (request.method()) {
                case "GET" -> ApiResponse.ok(list());
                case "POST" -> ApiResponse.created(render(
                        accounts.create(request.actor(), AccountJson.patch(request.body().get()))));
                default -> throw ApiException.methodNotAllowed();
            };
        }
        if (request.segments().size() > 2 && "models".equals(request.segments().get(2))) {
            return modelAction(request);
        }
        if (request.segments().size() != 2) {
            throw ApiException.notFound();
        }
        long id = request.id();
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(render(accounts.get(id)));
            case "PUT" -> ApiResponse.ok(render(
                    accounts.update(request.actor(), id, AccountJson.patch(request.body().get()))));
            case "DELETE" -> {
                accounts.delete(request.actor(), id);
                yield ApiResponse.noContent();
            }
            default -> throw ApiException.methodNotAllowed();
        };
    }

    /**
     * §9 {@code POST /accounts/{id}/models/{model_key}/pause|resume|clear} and
     * {@code POST /accounts/{id}/models/clear-all}: answers the account with its new state and
     * {@code changed} (rows touched). The container has already URL-decoded the model key.
     */
    private ApiResponse modelAction(ApiRequest request) {
        List<String> segments = request.segments();
        long id = request.id();
        boolean clearAll = segments.size() == 4 && "clear-all".equals(segments.get(3));
        if (!clearAll && segments.size() != 5) {
            throw ApiException.notFound();
        }
        if (!"POST".equals(request.method())) {
            throw ApiException.methodNotAllowed();
        }
        int changed = clearAll ? models.clearAll(request.actor(), id) : switch (segments.get(4)) {
            case "pause" -> models.pause(request.actor(), id, segments.get(3));
            case "resume" -> models.resume(request.actor(), id, segments.get(3));
            case "clear" -> models.clear(request.actor(), id, segments.get(3));
            default -> throw ApiException.notFound();
        };
        ObjectNode doc = render(accounts.get(id));
        doc.put("changed", changed);
        return ApiResponse.ok(doc);
    }

    private ObjectNode list() {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("items");
        accounts.list().forEach(a -> items.add(render(a)));
        return page;
    }

    private ObjectNode render(StoredAccount account) {
        ObjectNode doc = Documents.account(account);
        doc.set("state", Documents.JSON.valueToTree(states.describe(account.account())));
        return doc;
    }
}
