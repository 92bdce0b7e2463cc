package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One admin API call after authentication: method, path segments below {@code /admin/api},
 * the actor for the audit log, query parameter lookup and the body (parsed on demand).
 */
record ApiRequest(String method, List<String> segments, String actor, Function<String, String> query,
        Supplier<ObjectNode> body) {

    /** A read of a whole resource ({@code GET /admin/api/<name>}): 404 for a longer path, 405 for another method. */
    void expectReadOfWhole() {
        if (segments.size() != 1) {
            throw ApiException.notFound();
        }
        if (!method.equals("GET")) {
            throw ApiException.methodNotAllowed();
        }
    }

    /** The numeric id in segment 1, or 404 when it is not a positive number. */
    long id() {
        return id(1);
    }

    /** The numeric id in segment {@code index}, or 404 when it is not a positive number. */
    long id(int index) {
        try {
            long id = Long.parseLong(segments.get(index));
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException ignored) {
            // falls through to 404
        }
        throw ApiException.notFound();
    }
}
