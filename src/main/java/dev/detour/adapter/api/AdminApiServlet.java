package dev.detour.adapter.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.proxy.ClientAddress;
import dev.detour.adapter.security.AuthThrottle;
import dev.detour.admin.AccountAdmin;
import dev.detour.admin.board.AccountStateView;
import dev.detour.admin.AuditLog;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.RecoveryAdmin;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.RequestLog;
import dev.detour.admin.ConflictException;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import dev.detour.core.security.FailureDelays;
import dev.detour.server.UnreadBody;
import java.time.Duration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin JSON API (SPEC §9), mapped at {@code /admin/api/*}: authenticates, routes by the
 * first path segment, and turns every failure into {@code {"error":{"code","message","field"}}}
 * with 400 / 401 / 404 / 409 / 422. Resources are thin: parse → use case → render.
 */
public final class AdminApiServlet extends HttpServlet {
    private static final Logger log = LoggerFactory.getLogger(AdminApiServlet.class);
    private static final int MAX_BODY = 1 << 20;
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private final transient AdminAuthenticator authenticator;
    private final transient GroupsApi groups;
    private final transient AccountsApi accounts;
    private final transient AuditApi audit;
    private final transient KeysApi keys;
    private final transient RequestsApi requests;
    private final transient Runnable afterChange;
    private transient SmartApi smart;
    private transient RecoveryApi recovery;
    private transient SettingsApi settings;
    private transient InstancesApi instances;
    private transient AlertsApi alerts;
    private transient PoolApi pool;
    private transient ClientAddress clientAddress = ClientAddress.PEER;
    private transient AuthThrottle tokenFailures;

    public AdminApiServlet(AdminAuthenticator authenticator, GroupAdmin groupAdmin, AccountAdmin accountAdmin,
            AccountStateView states, AuditLog auditLog, KeyAdmin keyAdmin, RequestLog requestLog,
            Runnable afterChange, ModelAdmin modelAdmin) {
        this.authenticator = authenticator;
        this.groups = new GroupsApi(groupAdmin);
        this.accounts = new AccountsApi(accountAdmin, states, modelAdmin);
        this.audit = new AuditApi(auditLog);
        this.keys = new KeysApi(keyAdmin);
        this.requests = new RequestsApi(requestLog);
        this.afterChange = afterChange;
    }

    /** Smart keys: prices and block rules (wired by App next to the other resources). */
    public AdminApiServlet withSmartKeys(dev.detour.admin.PriceAdmin prices, dev.detour.admin.BlockAdmin blocks) {
        this.smart = new SmartApi(prices, blocks);
        return this;
    }

    /** Mounts the R-4/R-6 recovery endpoints (the accounts' test/recover and /recovery). */
    public AdminApiServlet withRecovery(RecoveryAdmin recoveryAdmin) {
        this.recovery = new RecoveryApi(recoveryAdmin);
        return this;
    }

    /** Serves {@code /admin/api/settings} from the given store (wired by the App). */
    public AdminApiServlet withSettings(dev.detour.admin.SiteSettings siteSettings) {
        this.settings = new SettingsApi(siteSettings);
        return this;
    }

    /** Serves {@code /admin/api/instances} from the instance registry (G-2). */
    public AdminApiServlet withInstances(dev.detour.gateway.live.InstanceRegistry registry) {
        this.instances = new InstancesApi(registry);
        return this;
    }

    /** Serves {@code /admin/api/alerts/…} (W-1 channels and the delivery log). */
    public AdminApiServlet withAlerts(dev.detour.alerts.AlertChannels channels) {
        this.alerts = new AlertsApi(channels);
        return this;
    }

    /** W-2: {@code /admin/api/export} and {@code /admin/api/import} over the same use cases. */
    public AdminApiServlet withPoolTransfer(PoolApi poolApi) {
        this.pool = poolApi;
        return this;
    }

    /** X-3: wrong bearer tokens slow their client address (the trusted-proxy client address, O-3). */
    public AdminApiServlet withThrottle(AuthThrottle throttle, ClientAddress address) {
        this.tokenFailures = throttle;
        this.clientAddress = address;
        return this;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ApiResponse result;
        try {
            result = dispatch(request);
            if (!request.getMethod().equals("GET")) {
                // O-4: this instance's own changes reach its pool snapshot at once
                afterChange.run();
            }
        } catch (ValidationException e) {
            result = error(422, e.code(), e.getMessage(), e.field());
        } catch (ConflictException e) {
            result = error(409, e.code(), e.getMessage(), e.field());
        } catch (NotFoundException e) {
            result = error(404, "not_found", e.getMessage(), null);
        } catch (ApiException e) {
            result = error(e.status(), e.code(), e.getMessage(), null);
            if (e.retryAfterSeconds() > 0) {
                response.setHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
            }
        } catch (RuntimeException e) {
            log.error("admin API {} {} failed", request.getMethod(), request.getRequestURI(), e);
            result = error(500, "internal", "internal error; see the server log", null);
        }
        write(request, response, result);
    }

    private ApiResponse dispatch(HttpServletRequest request) {
        Optional<String> actor = authenticate(request);
        if (actor.isEmpty()) {
            throw new ApiException(401, "auth.admin_required",
                    "admin authentication required: Authorization: Bearer <admin token>");
        }
        List<String> segments = segments(request.getPathInfo());
        ApiRequest call = new ApiRequest(request.getMethod(), segments, actor.get(), request::getParameter,
                () -> body(request));
        if (segments.isEmpty()) {
            throw ApiException.notFound();
        }
        if (recovery != null && RecoveryApi.serves(segments)) {
            return recovery.handle(call);
        }
        if (pool != null && PoolApi.serves(segments.get(0))) {
            return pool.handle(call);
        }
        return switch (segments.get(0)) {
            case "groups" -> groups.handle(call);
            case "accounts" -> accounts.handle(call);
            case "audit" -> audit.handle(call);
            case "keys" -> keys.handle(call);
            case "requests" -> requests.handle(call);
            case "prices" -> smartApi().prices(call);
            case "blocks" -> smartApi().blocks(call);
            case "settings" -> settings.handle(call);
            case "instances" -> instancesApi().handle(call);
            case "alerts" -> {
                if (alerts == null) {
                    throw ApiException.notFound();
                }
                yield alerts.handle(call);
            }
            default -> throw ApiException.notFound();
        };
    }

    /**
     * X-3: a request carrying a bearer token from an address whose recent tokens failed waits
     * (429 before the token is compared); a console session without a token is never throttled.
     */
    private Optional<String> authenticate(HttpServletRequest request) {
        String token = tokenFailures == null ? null : BearerTokenAuthenticator.presented(request);
        boolean presentsToken = token != null;
        String ip = presentsToken ? clientAddress.of(request) : null;
        if (presentsToken) {
            Duration wait = tokenFailures.waitForCredential(ip, token);
            if (!wait.isZero()) {
                throw ApiException.throttled(FailureDelays.retryAfterSeconds(wait));
            }
        }
        Optional<String> actor = authenticator.actor(request);
        if (actor.isEmpty() && presentsToken) {
            tokenFailures.failedCredential(ip, token);
        }
        return actor;
    }

    private SmartApi smartApi() {
        if (smart == null) {
            throw ApiException.notFound();
        }
        return smart;
    }

    private InstancesApi instancesApi() {
        if (instances == null) {
            throw ApiException.notFound();
        }
        return instances;
    }

    private static List<String> segments(String pathInfo) {
        if (pathInfo == null) {
            return List.of();
        }
        return Arrays.stream(pathInfo.split("/")).filter(s -> !s.isEmpty()).toList();
    }

    /** P-2 style: bad JSON or a non-object body → 400 request.invalid_json; over 1 MiB → 413. */
    private ObjectNode body(HttpServletRequest request) {
        try (InputStream in = request.getInputStream()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                throw new ApiException(413, "request.too_large", "the body is larger than 1 MiB");
            }
            JsonNode node = json.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new ApiException(400, "request.invalid_json", "the body must be a JSON object");
            }
            return (ObjectNode) node;
        } catch (JsonProcessingException e) {
            throw new ApiException(400, "request.invalid_json", "the body is not valid JSON");
        } catch (IOException e) {
            throw new ApiException(400, "request.invalid_json", "the body could not be read");
        }
    }

    private ApiResponse error(int status, String code, String message, String field) {
        ObjectNode body = json.createObjectNode();
        body.putObject("error").put("code", code).put("message", message).put("field", field);
        return new ApiResponse(status, body);
    }

    private void write(HttpServletRequest request, HttpServletResponse response, ApiResponse result)
            throws IOException {
        UnreadBody.discardOrClose(request, response); // refused before its body was read (a 401, a 404)
        response.setStatus(result.status());
        response.setHeader("Cache-Control", "no-store");
        if (result.status() == 401) {
            response.setHeader("WWW-Authenticate", "Bearer");
        }
        if (result.body() == null) {
            return;
        }
        response.setContentType("application/json;charset=utf-8");
        response.getOutputStream().write(json.writeValueAsBytes(result.body()));
    }
}
