package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.view.View;
import dev.detour.admin.LoggedRequest;
import dev.detour.admin.RequestFilter;
import dev.detour.admin.RequestLog;
import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.gateway.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * U-5 request log: {@code /requests} lists events newest first with filters and keyset paging
 * ("older" follows the cursor); {@code /requests/{request_id}} shows one event's attempt chain.
 */
public final class RequestsPageServlet extends HttpServlet {
    private static final int PAGE = 50;
    private final transient RequestLog log;
    private final transient PoolSnapshot snapshot;
    private final transient View view;

    public RequestsPageServlet(RequestLog log, PoolSnapshot snapshot, View view) {
        this.log = log;
        this.snapshot = snapshot;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        if (path == null || path.equals("/")) {
            list(request, response);
        } else {
            detail(path.substring(1), request, response);
        }
    }

    private void list(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "requests");
        model.put("f", filterParams(request));
        model.put("accountNames", accountNames());
        try {
            Long status = Params.number(request, "status");
            RequestFilter filter = new RequestFilter(Params.number(request, "key"), Params.number(request, "account"),
                    Params.number(request, "group"), Params.text(request, "model"), Params.text(request, "outcome"),
                    status == null ? null : status.intValue(), Params.time(request, "from"), Params.time(request, "to"));
            RequestLog.Page page = log.page(filter, PAGE, Params.text(request, "cursor"));
            model.put("events", page.items());
            model.put("nextCursor", page.nextCursor());
            model.put("nextQuery", nextQuery(request, page.nextCursor()));
        } catch (ValidationException e) {
            response.setStatus(422);
            model.put("events", java.util.List.of());
            model.put("filterError", e.field());
        }
        view.render(request, response, "requests/list", model, "request-rows");
    }

    private void detail(String requestId, HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<LoggedRequest> event = log.find(requestId);
        if (event.isEmpty()) {
            response.setStatus(404);
        }
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "requests");
        model.put("requestId", requestId);
        model.put("e", event.orElse(null));
        model.put("attempts", event.map(e -> tree(e.attemptsJson())).orElse(null));
        model.put("rejections", event.map(e -> tree(e.rejectionsJson())).orElse(null));
        model.put("accountNames", accountNames());
        model.put("cost", event.map(e -> String.format(java.util.Locale.ROOT, "%.6f", e.costMicros() / 1e6)).orElse(""));
        view.render(request, response, "requests/detail", model, null);
    }

    private Map<Long, String> accountNames() {
        Map<Long, String> names = new HashMap<>();
        for (Account a : snapshot.view().accounts()) {
            names.put(a.id(), a.name());
        }
        return names;
    }

    private static Map<String, String> filterParams(HttpServletRequest request) {
        Map<String, String> f = new HashMap<>();
        for (String name : new String[] {"key", "account", "group", "model", "outcome", "status", "from", "to"}) {
            f.put(name, request.getParameter(name) == null ? "" : request.getParameter(name));
        }
        return f;
    }

    /** The query of the next (older) page: the same filters plus the cursor. */
    private static String nextQuery(HttpServletRequest request, String cursor) {
        if (cursor == null) {
            return null;
        }
        StringBuilder q = new StringBuilder("?cursor=").append(cursor);
        filterParams(request).forEach((k, v) -> {
            if (!v.isBlank()) {
                q.append('&').append(k).append('=').append(java.net.URLEncoder.encode(v, java.nio.charset.StandardCharsets.UTF_8));
            }
        });
        return q.toString();
    }

    private static JsonNode tree(String json) {
        try {
            return Documents.JSON.readTree(json);
        } catch (Exception e) {
            return Documents.JSON.createArrayNode();
        }
    }
}
