package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.AccountStateView;
import dev.detour.admin.Documents;
import dev.detour.admin.StoredAccount;

/** {@code /admin/api/accounts} and {@code /admin/api/accounts/{id}}: config + hint + computed state. */
final class AccountsApi {
    private final AccountAdmin accounts;
    private final AccountStateView states;

    AccountsApi(AccountAdmin accounts, AccountStateView states) {
        this.accounts = accounts;
        this.states = states;
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
