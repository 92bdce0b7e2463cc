package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.view.View;
import dev.detour.admin.port.EventNames;
import dev.detour.admin.port.LoggedRequest;
import dev.detour.admin.port.RequestFilter;
import dev.detour.admin.RequestLog;
import dev.detour.core.ValidationException;
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
 * U-7: keys, accounts and groups by name with links, filters picked by name (a name or an id in the query string).
 */
public final class RequestsPageServlet extends HttpServlet {
    private static final int PAGE = 50;
    private final transient RequestLog log;
    private final transient EventNames.Source names;
    private final transient View view;

    public RequestsPageServlet(RequestLog log, EventNames.Source names, View view) {
        this.log = log;
        this.names = names;
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
        EventNames known = names.all();
        model.put("names", known);
        model.put("money", Money.SHOWN);
        try {
            Long status = Params.number(request, "status");
            RequestFilter filter = new RequestFilter(EventNames.idOf(known.keys(), "key", Params.text(request, "key")),
                    EventNames.idOf(known.accounts(), "account", Params.text(request, "account")),
                    EventNames.idOf(known.groups(), "group", Params.text(request, "group")),
                    Params.text(request, "model"), Params.text(request, "outcome"),
                    status == null ? null : status.intValue(), Params.time(request, "from"), Params.time(request, "to"));
            model.put("picked", Map.of("key", String.valueOf(filter.keyId()), "account", String.valueOf(filter.accountId()),
                    "group", String.valueOf(filter.groupId())));
            RequestLog.Page page = log.page(filter, PAGE, Params.text(request, "cursor"));
            model.put("events", page.items());
            model.put("nextCursor", page.nextCursor());
            model.put("nextQuery", nextQuery(request, page.nextCursor()));
        } catch (ValidationException e) {
            response.setStatus(422);
            model.put("events", java.util.List.of());
            model.put("picked", Map.of());
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
        EventNames known = names.all();
        model.put("accountNames", accountNames(known));
        model.put("names", known);
        model.put("cost", event.map(e -> String.format(java.util.Locale.ROOT, "%.6f", e.costMicros() / 1e6)).orElse(""));
        view.render(request, response, "requests/detail", model, null);
    }

    private static Map<Long, String> accountNames(EventNames known) {
        Map<Long, String> accounts = new HashMap<>();
        known.accounts().forEach((id, named) -> accounts.put(id, named.name()));
        return accounts;
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
