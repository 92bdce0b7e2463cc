package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.recovery.ModelTestResult;
import java.util.List;

/**
 * over JSON: {@code POST /accounts/{id}/test} ({@code {"model":…}}),
 * {@code POST /accounts/{id}/recover}, {@code GET /recovery}, {@code POST /recovery/recover-all},
 * {@code POST /recovery/probes/pause|resume}; W-3 {@code POST /accounts/test} (a batch),
 * {@code GET /accounts/test/{batch}}, {@code POST /accounts/test/{batch}/recover-passed}.
 */
final class RecoveryApi {
    private final RecoveryAdmin recovery;

    RecoveryApi(RecoveryAdmin recovery) {
        this.recovery = recovery;
    }

    /** True for the paths this resource serves (the account ones live below /accounts/{id}). */
    static boolean serves(List<String> segments) {
        if (!segments.isEmpty() && segments.get(0).equals("recovery") || BatchTestApi.serves(segments)) {
            return true;
        }
        return segments.size() == 3 && segments.get(0).equals("accounts")
                && (segments.get(2).equals("test") || segments.get(2).equals("recover"));
    }

    ApiResponse handle(ApiRequest request) {
        List<String> path = request.segments();
        if (BatchTestApi.serves(path)) {
            return BatchTestApi.handle(recovery, request);
        }
        if (path.get(0).equals("accounts")) {
            requirePost(request);
            long id = request.id();
            return ApiResponse.ok(path.get(2).equals("test") ? test(request, id) : recover(request, id));
        }
        String route = String.join("/", path.subList(1, path.size()));
        if (route.isEmpty()) {
            if (!request.method().equals("GET")) {
                throw ApiException.methodNotAllowed();
            }
            return ApiResponse.ok(status(recovery.status()));
        }
        requirePost(request);
        return switch (route) {
            case "recover-all" -> ApiResponse.ok(Documents.JSON.createObjectNode().set("recovered",
                    Documents.JSON.valueToTree(recovery.recoverAll(request.actor()))));
            case "probes/pause" -> probes(request, true);
            case "probes/resume" -> probes(request, false);
            default -> throw ApiException.notFound();
        };
    }

    static ObjectNode status(RecoveryAdmin.Status s) {
        ObjectNode doc = Documents.JSON.createObjectNode();
        doc.put("probes_paused", s.probesPaused()).put("leader", s.leader())
                .put("this_instance_leads", s.thisInstanceLeads()).put("probes_running", s.probesRunning())
                .put("probes_last_minute", s.probesLastMinute()).put("accounts_in_need", s.candidates());
        if (s.lastTick() != null) {
            doc.putObject("last_tick").put("leader", s.lastTick().leader())
                    .put("candidates", s.lastTick().candidates()).put("reactivated", s.lastTick().reactivated())
                    .put("probes_started", s.lastTick().probesStarted())
                    .put("probes_deferred", s.lastTick().probesDeferred());
        }
        return doc;
    }

    private ObjectNode test(ApiRequest request, long id) {
        String model = request.body().get().path("model").asText(null);
        ModelTestResult r = recovery.test(request.actor(), id, model);
        ObjectNode doc = Documents.JSON.createObjectNode();
        doc.put("ok", r.ok()).put("latency_ms", r.latencyMs()).put("status", r.status()).put("message", r.message())
                .put("upstream_body", r.upstreamBody())
                .put("endpoint", r.endpoint()).put("model", r.model()).put("model_key", r.modelKey())
                .put("failure_kind", r.failureKind());
        return doc;
    }

    private ObjectNode recover(ApiRequest request, long id) {
        RecoveryAdmin.Recovered r = recovery.recover(request.actor(), id);
        return Documents.JSON.createObjectNode().put("account_id", r.accountId()).put("recovered", r.recovered())
                .put("reason", r.reason());
    }

    private ApiResponse probes(ApiRequest request, boolean pause) {
        if (pause) {
            recovery.pauseProbes(request.actor());
        } else {
            recovery.resumeProbes(request.actor());
        }
        return ApiResponse.ok(Documents.JSON.createObjectNode().put("probes_paused", pause));
    }

    static void requirePost(ApiRequest request) {
        if (!request.method().equals("POST")) {
            throw ApiException.methodNotAllowed();
        }
    }
}
