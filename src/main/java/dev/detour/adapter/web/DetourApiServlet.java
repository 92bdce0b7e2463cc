package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.admin.RequestLog;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.security.FailureDelays;
import dev.detour.core.selection.Plan;
import dev.detour.gateway.Explanations;
import dev.detour.gateway.Forwarder;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.gateway.Router;
import dev.detour.json.JsonFactories;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;

/**
 * E-2 for key holders, authenticated by the Detour key like the proxy:
 * {@code GET /v1/detour/explain/{request_id}} (only the key that made the request; any other → 404)
 * and {@code POST /v1/detour/route-preview} {@code {"model":…,"endpoint":"chat_completions"}} —
 * what selection would do now, calling no upstream.
 */
final class DetourApiServlet extends HttpServlet {
    private static final ObjectMapper JSON = JsonFactories.mapper();
    private final transient Forwarder forwarder;
    private final transient Router router;
    private final transient PoolSnapshot snapshot;
    private final transient Explanations explanations;
    private final transient RequestLog requests;
    private final transient Clock clock;
    private final transient ClientAddress clientAddress;
    private final transient AuthThrottle keyFailures;

    DetourApiServlet(Forwarder forwarder, Router router, PoolSnapshot snapshot, Explanations explanations,
            RequestLog requests, Clock clock, ClientAddress clientAddress, AuthThrottle keyFailures) {
        this.clientAddress = clientAddress;
        this.keyFailures = keyFailures;
        this.forwarder = forwarder;
        this.router = router;
        this.snapshot = snapshot;
        this.explanations = explanations;
        this.requests = requests;
        this.clock = clock;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String ip = clientAddress.of(request);
        String presented = presentedKey(request);
        // as on the proxy, before the key lookup
        Duration wait = keyFailures.waitForCredential(ip, presented);
        if (!wait.isZero()) {
            long seconds = FailureDelays.retryAfterSeconds(wait);
            response.setHeader("Retry-After", Long.toString(seconds));
            error(response, 429, "auth.throttled", "too many failed key checks from this address; retry after "
                    + seconds + " s");
            return;
        }
        KeyEntry key = forwarder.authenticate(presented);
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        if (key == null) {
            if (presented != null && !presented.isEmpty()) {
                keyFailures.failedCredential(ip, presented);
            }
            error(response, 401, "auth.invalid_key", "missing, unknown, disabled or expired Detour key");
        } else if (path.startsWith("/explain/") && request.getMethod().equals("GET")) {
            explain(response, key, path.substring("/explain/".length()));
        } else if (path.equals("/route-preview") && request.getMethod().equals("POST")) {
            preview(request, response, key);
        } else {
            error(response, 404, "request.unknown_endpoint", "no such endpoint: " + request.getMethod() + " "
                    + request.getRequestURI());
        }
    }

    private void explain(HttpServletResponse response, KeyEntry key, String requestId) throws IOException {
        var event = requests.find(requestId).filter(e -> e.keyId() != null && e.keyId() == key.id());
        if (event.isEmpty()) {
            // another key's request is indistinguishable from a missing one
            error(response, 404, "not_found", "no request " + requestId + " for this key");
            return;
        }
        write(response, 200, explanations.explain(snapshot.view(), Documents.request(event.get())));
    }

    private void preview(HttpServletRequest request, HttpServletResponse response, KeyEntry key) throws IOException {
        JsonNode body;
        try {
            body = JSON.readTree(request.getInputStream().readNBytes(1 << 20));
        } catch (IOException e) {
            body = null;
        }
        if (body == null || !body.path("model").isTextual()) {
            error(response, 400, "request.invalid_json", "body must be {\"model\":…,\"endpoint\":\"chat_completions\"}");
            return;
        }
        String model = body.get("model").asText();
        String endpoint = body.path("endpoint").asText("chat_completions");
        EndpointFamily family;
        try {
            family = EndpointFamily.fromWire(endpoint);
        } catch (RuntimeException e) {
            error(response, 400, "request.unknown_endpoint", "unknown endpoint family: " + endpoint);
            return;
        }
        if (!key.policy().allowsModel(model)) {
            error(response, 403, "key.model_not_allowed", "this key may not use model " + model);
            return;
        }
        Plan plan = router.preview(snapshot.view(), key, family, model, clock.instant());
        write(response, 200, explanations.preview(snapshot.view(), model, family.wire(), plan, clock.instant()));
    }

    static String presentedKey(HttpServletRequest request) {
        String auth = request.getHeader("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        String apiKey = request.getHeader("x-api-key");
        return apiKey == null ? null : apiKey.trim();
    }

    private static void error(HttpServletResponse response, int status, String code, String message)
            throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("error").put("code", code).put("message", message);
        write(response, status, body);
    }

    private static void write(HttpServletResponse response, int status, JsonNode body) throws IOException {
        response.setStatus(status);
        response.setHeader("Cache-Control", "no-store");
        response.setContentType("application/json;charset=utf-8");
        response.getOutputStream().write(JSON.writeValueAsBytes(body));
    }
}
