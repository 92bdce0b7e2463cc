package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.BlockAdmin;
import dev.detour.admin.PriceAdmin;

/** {@code GET/PUT /admin/api/prices} (S-3) and {@code GET/POST /admin/api/blocks}, {@code DELETE …/blocks/{id}} (S-10). */
final class SmartApi {
    private final PriceAdmin prices;
    private final BlockAdmin blocks;

    SmartApi(PriceAdmin prices, BlockAdmin blocks) {
        this.prices = prices;
        this.blocks = blocks;
    }

    ApiResponse prices(ApiRequest request) {
        if (request.segments().size() != 1) {
            throw ApiException.notFound();
        }
        return switch (request.method()) {
            case "GET" -> ApiResponse.ok(Documents.prices(prices.list()));
            case "PUT" -> ApiResponse.ok(Documents.prices(prices.replace(request.actor(), SmartJson.prices(request.body().get()))));
            default -> throw ApiException.methodNotAllowed();
        };
    }

    ApiResponse blocks(ApiRequest request) {
        if (request.segments().size() == 1) {
            return switch (request.method()) {
                case "GET" -> {
                    ObjectNode page = Documents.JSON.createObjectNode();
                    ArrayNode items = page.putArray("items");
                    blocks.list().forEach(b -> items.add(Documents.block(b)));
                    yield ApiResponse.ok(page);
                }
                case "POST" -> ApiResponse.created(Documents.block(blocks.create(request.actor(),
                        SmartJson.block(request.body().get()))));
                default -> throw ApiException.methodNotAllowed();
            };
        }
        if (request.segments().size() == 2 && request.method().equals("DELETE")) {
            blocks.delete(request.actor(), request.id());
            return ApiResponse.noContent();
        }
        throw request.segments().size() == 2 ? ApiException.methodNotAllowed() : ApiException.notFound();
    }
}
