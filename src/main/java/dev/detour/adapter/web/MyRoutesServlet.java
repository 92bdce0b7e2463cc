package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.view.View;
import dev.detour.admin.usage.Breakdowns;
import dev.detour.admin.RequestLog;
import dev.detour.admin.port.UsageStats;
import dev.detour.core.security.FailureDelays;
import dev.detour.core.selection.ModelCatalog;
import dev.detour.gateway.Explanations;
import dev.detour.gateway.port.KeyEntry;
import dev.detour.gateway.RouteStates;
import dev.detour.recovery.RouteChecks;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * E-1 {@code /my}: a key holder signs in by pasting the key and sees, per model the key may use,
 * its routes (group + account alias, never a URL or secret) with their state, and the key's recent
 * requests with route, reason in words, attempt chain and why cheaper routes were passed over.
 * U-9: the key's own usage over the last 30 days (tokens and cost by model and by day, the dashboard's charts) and its
 * limits with what remains.
 */
final class MyRoutesServlet extends HttpServlet {
    /**
     * One recent request as the page shows it: {@code createdAt} for the viewer's zone (the page's script),
     * {@code createdAtUtc} until it runs; {@code queuedMs}: L-2's wait for a lease, null when none.
     */
    public record RequestLine(String id, Instant createdAt, String createdAtUtc, String model, String outcome, int status,
            String route, String reason, String errorCode, List<String> attempts, List<Passed> passedOver,
            Integer queuedMs) {
    }

    public record Passed(String route, String reason, boolean cheaper) {
    }

    private static final DateTimeFormatter UTC_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
            .withZone(ZoneOffset.UTC);

    private final transient SmartRoutes.Deps deps;
    private final transient View view;
    private final transient MySessions sessions;
    private final transient Explanations explanations;
    private final transient RouteStates states;

    MyRoutesServlet(SmartRoutes.Deps deps, View view, MySessions sessions, Explanations explanations,
            RouteStates states) {
        this.deps = deps;
        this.view = view;
        this.sessions = sessions;
        this.explanations = explanations;
        this.states = states;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        var session = sessions.current(request);
        KeyEntry key = session.map(s -> keyById(s.keyId())).orElse(null);
        if (key == null) {
            loginPage(request, response, null);
            return;
        }
        Map<String, Object> model = new HashMap<>();
        model.put("keyName", key.name());
        long spent = deps.smart().spentMicros(key.id());
        Long limit = key.policy().spendLimitMicros();
        model.put("spent", Money.format(spent));
        model.put("spendLimit", limit == null ? null : Money.format(limit));
        model.put("spendPercent", limit == null || limit <= 0 ? null : Math.min(100, spent * 100 / limit));
        model.put("limits", MyLimits.of(limit, spent, deps.smart().limits().headroom(key)));
        Instant now = deps.clock().instant();
        if (!View.isHtmx(request)) { // the check poll swaps the routes only
            model.put("usage", deps.usage().report(Breakdowns.Span.MONTH, now, key.id(),
                    java.util.EnumSet.of(UsageStats.Dimension.MODEL)));
            model.put("money", Money.SHOWN);
        }
        model.put("models", MyModelView.of(states.of(deps.snapshot().view(), key, now), now));
        String filter = blankToNull(request.getParameter("model"));
        RequestLog.Page page = deps.requests().page(key.id(), null, filter, null, 20,
                blankToNull(request.getParameter("cursor")));
        model.put("requests", lines(page));
        model.put("nextCursor", page.nextCursor());
        model.put("filterModel", filter);
        model.put("myCsrf", session.get().csrf());
        model.put("anyChecking", anyChecking(model.get("models")));
        CheckNotice.fromQuery(request).ifPresent(n -> model.put("checkNotice", n));
        // htmx polls only the route section while a check runs
        view.render(request, response, "my/routes", model, "routes");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo() == null ? "" : request.getPathInfo();
        if (path.equals("/login")) {
            if (!MySessions.loginCsrfValid(request)) {
                response.sendError(403, "CSRF token missing or stale; reload the page");
                return;
            }
            // an address whose recent key guesses failed waits (shared with /v1), before the lookup
            String ip = deps.clientAddress().of(request);
            String presented = request.getParameter("key");
            Duration wait = deps.keyFailures().waitForCredential(ip, presented);
            if (!wait.isZero()) {
                long seconds = FailureDelays.retryAfterSeconds(wait);
                response.setStatus(429);
                response.setHeader("Retry-After", Long.toString(seconds));
                loginPage(request, response, "my.login.throttled", seconds);
                return;
            }
            KeyEntry key = deps.forwarder().authenticate(presented);
            if (key == null) {
                if (presented != null && !presented.isBlank()) {
                    deps.keyFailures().failedCredential(ip, presented);
                }
                response.setStatus(401);
                loginPage(request, response, "my.login.invalid");
                return;
            }
            sessions.signIn(request, response, key.id());
        } else if (path.equals("/check")) {
            check(request, response);
            return;
        } else if (path.equals("/logout")) {
            var session = sessions.current(request);
            if (session.isPresent() && !MySessions.csrfValid(session.get(), request)) {
                response.sendError(403, "CSRF token missing or stale; reload the page");
                return;
            }
            sessions.signOut(request, response);
        } else {
            response.sendError(404);
            return;
        }
        response.setStatus(303);
        response.setHeader("Location", "/my");
    }

    /** E-1 "check now": queues probes of the model's routes and answers at once (303 back with a notice). */
    private void check(HttpServletRequest request, HttpServletResponse response) throws IOException {
        var session = sessions.current(request);
        KeyEntry key = session.map(s -> keyById(s.keyId())).orElse(null);
        if (key == null || !MySessions.csrfValid(session.get(), request)) {
            response.sendError(403, "sign in again; the session or its CSRF token is missing");
            return;
        }
        String model = blankToNull(request.getParameter("model"));
        var view = deps.snapshot().view();
        if (model == null || !ModelCatalog.clientModels(view.accounts(), key.policy()).contains(model)) {
            response.sendError(404, "this key has no such model");
            return;
        }
        List<RouteChecks.Target> targets = new ArrayList<>();
        states.of(view, key, model, deps.clock().instant()).checkable().forEach(r -> targets.add(
                new RouteChecks.Target(view.byId().get(r.accountId()), model, r.modelKey())));
        RouteChecks.Answer answer = deps.checks().ask(key.id(), targets);
        response.setStatus(303);
        response.setHeader("Location", CheckNotice.location(model, answer));
    }

    @SuppressWarnings("unchecked")
    private static boolean anyChecking(Object models) {
        return ((List<MyModelView>) models).stream().anyMatch(MyModelView::checking);
    }

    private void loginPage(HttpServletRequest request, HttpServletResponse response, String errorKey)
            throws IOException {
        loginPage(request, response, errorKey, 0);
    }

    private void loginPage(HttpServletRequest request, HttpServletResponse response, String errorKey,
            long retrySeconds) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("loginCsrf", sessions.loginCsrf(request, response));
        model.put("errorKey", errorKey);
        model.put("retrySeconds", retrySeconds);
        view.render(request, response, "my/login", model, null);
    }

    private KeyEntry keyById(long id) {
        return deps.snapshot().view().keysByHash().values().stream()
                .filter(k -> k.id() == id && k.usableAt(deps.clock().instant())).findFirst().orElse(null);
    }

    private List<RequestLine> lines(RequestLog.Page page) {
        List<RequestLine> lines = new ArrayList<>();
        page.items().forEach(row -> {
            JsonNode e = explanations.explain(deps.snapshot().view(), Documents.request(row));
            List<String> attempts = new ArrayList<>();
            e.path("attempts").forEach(a -> attempts.add(routeName(a) + " → "
                    + (a.path("status").isNull() ? "—" : a.path("status").asText()) + " "
                    + a.path("failure_kind").asText("") + " (" + a.path("action").asText() + ")"));
            List<Passed> passed = new ArrayList<>();
            e.path("passed_over").forEach(p -> {
                if (MyModelView.couldHaveServed(p.path("reason").asText())) {
                    passed.add(new Passed(routeName(p), p.path("reason").asText(), p.path("cheaper").asBoolean()));
                }
            });
            lines.add(new RequestLine(row.requestId(), row.createdAt(), UTC_SECONDS.format(row.createdAt()), row.requestedModel(),
                    row.outcome(), row.status(), e.path("route").isObject() ? routeName(e.get("route")) : "—",
                    row.reasonCode(), row.errorCode(), attempts, passed,
                    e.path("queued_ms").isInt() ? e.path("queued_ms").asInt() : null));
        });
        return lines;
    }

    private static String routeName(JsonNode route) {
        return route.path("group").asText("?") + " / " + route.path("account").asText("?");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
