package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.core.ValidationException;
import dev.detour.recovery.BatchTests;
import dev.detour.recovery.ModelTestResult;
import java.util.ArrayList;
import java.util.List;

/**
 * W-3 over JSON: {@code POST /accounts/test} {@code {"model":…,"account_ids":[…]|null,"group":…|null}} →
 * 202 and the batch; {@code GET /accounts/test/{batch}} → its lines; {@code POST
 * /accounts/test/{batch}/recover-passed} → the accounts brought back.
 */
final class BatchTestApi {
    private BatchTestApi() {
    }

    static boolean serves(List<String> segments) {
        return segments.size() >= 2 && segments.size() <= 4 && segments.get(0).equals("accounts")
                && segments.get(1).equals("test");
    }

    static ApiResponse handle(RecoveryAdmin recovery, ApiRequest request) {
        List<String> path = request.segments();
        if (path.size() == 2) {
            RecoveryApi.requirePost(request);
            ObjectNode body = request.body().get();
            BatchTests.Batch batch = recovery.startBatch(request.actor(), body.path("model").asText(null),
                    accountIds(body.get("account_ids")), body.path("group").asText(null));
            return new ApiResponse(202, render(batch));
        }
        if (path.size() == 3) {
            if (!request.method().equals("GET")) {
                throw ApiException.methodNotAllowed();
            }
            return ApiResponse.ok(render(recovery.batch(path.get(2))));
        }
        if (!path.get(3).equals("recover-passed")) {
            throw ApiException.notFound();
        }
        RecoveryApi.requirePost(request);
        return ApiResponse.ok(Documents.JSON.createObjectNode().put("batch", path.get(2)).set("recovered",
                Documents.JSON.valueToTree(recovery.recoverPassed(request.actor(), path.get(2)))));
    }

    /** null or absent = no list (then the group, or every account). */
    private static List<Long> accountIds(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isArray()) {
            throw new ValidationException("validation.batch_test.account_ids", "account_ids",
                    "account_ids must be a list of account ids or null");
        }
        List<Long> ids = new ArrayList<>();
        for (JsonNode id : node) {
            if (!id.canConvertToLong() || id.asLong() <= 0) {
                throw new ValidationException("validation.batch_test.account_ids", "account_ids",
                        "account_ids must be positive whole numbers");
            }
            ids.add(id.asLong());
        }
        return ids;
    }

    static ObjectNode render(BatchTests.Batch batch) {
        ObjectNode doc = Documents.JSON.createObjectNode();
        doc.put("batch", batch.id()).put("model", batch.model()).put("started_at", batch.startedAt().toString())
                .put("done", batch.done()).put("interrupted", batch.interrupted());
        ObjectNode counts = doc.putObject("counts");
        for (BatchTests.Outcome o : BatchTests.Outcome.values()) {
            counts.put(o.wire(), batch.count(o));
        }
        ArrayNode results = doc.putArray("results");
        for (BatchTests.Result r : batch.results()) {
            ObjectNode line = results.addObject().put("account_id", r.accountId()).put("account", r.accountName())
                    .put("group", r.group()).put("status", r.outcome().wire());
            ModelTestResult t = r.test();
            if (t != null) {
                line.put("http_status", t.status()).put("failure_class", t.failureClass())
                        .put("failure_kind", t.failureKind()).put("message", t.message())
                        .put("upstream_body", t.upstreamBody())
                        .put("ttft_ms", t.firstByteMs()).put("latency_ms", t.latencyMs())
                        .put("upstream_model", t.modelKey()).put("served_model", t.servedModel());
            }
        }
        return doc;
    }
}
