package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.ConflictException;
import dev.detour.admin.NotFoundException;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.ChannelDraft;
import dev.detour.alerts.ChannelKind;
import dev.detour.core.ValidationException;
import dev.detour.core.alerts.AlertKind;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * W-1 alerts screen: the channels (secrets only as hints), a form to add one, "send test", enable,
 * disable and delete per channel, and the delivery log (newest first, 50 a page).
 */
public final class AlertsPageServlet extends HttpServlet {
    static final int PAGE = 50;
    private final transient AlertChannels alerts;
    private final transient ConsoleSessionAuth auth;
    private final transient View view;

    /** One channel as the page shows it: events and target as text, secrets only by their hints. */
    public record ChannelRow(long id, String name, String kind, String events, long suppressSeconds, String target,
            boolean enabled) {
        static ChannelRow of(AlertChannel c) {
            String events = c.events().stream().map(AlertKind::wire).sorted().collect(Collectors.joining(", "));
            StringBuilder target = new StringBuilder();
            c.secretHints().forEach((field, hint) -> target.append(field).append(' ').append(hint).append("  "));
            c.settings().forEach((field, value) -> target.append(field).append(' ').append(value).append("  "));
            return new ChannelRow(c.id(), c.name(), c.kind().wire(), events, c.suppress().toSeconds(),
                    target.toString().trim(), c.enabled());
        }
    }

    public AlertsPageServlet(AlertChannels alerts, ConsoleSessionAuth auth, View view) {
        this.alerts = alerts;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        render(request, response, new HashMap<>());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String actor = auth.signedInUser(request).orElse("console");
        Map<String, Object> model = new HashMap<>();
        try {
            switch (String.valueOf(request.getParameter("action"))) {
                case "create" -> alerts.create(actor, draft(request));
                case "test" -> model.put("testResult", alerts.test(id(request)));
                case "enable", "disable" -> alerts.update(actor, id(request), new ChannelDraft(null, null,
                        "enable".equals(request.getParameter("action")), null, null, null));
                case "delete" -> alerts.delete(actor, id(request));
                default -> response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            }
        } catch (ValidationException | NotFoundException | ConflictException e) {
            response.setStatus(422);
            model.put("errorMessage", e.getMessage());
        }
        render(request, response, model);
    }

    private static ChannelDraft draft(HttpServletRequest request) {
        ChannelKind kind = ChannelKind.fromWire(String.valueOf(request.getParameter("kind")));
        Map<String, String> fields = new LinkedHashMap<>();
        for (List<String> names : List.of(kind.secrets(), kind.settings())) {
            for (String name : names) {
                String value = request.getParameter(name);
                if (value != null && !value.isBlank()) {
                    fields.put(name, value);
                }
            }
        }
        String[] events = request.getParameterValues("events");
        Long suppress = Params.number(request, "suppress_seconds");
        Integer seconds = suppress == null ? null : (int) Math.max(-1, Math.min(Integer.MAX_VALUE, suppress));
        return new ChannelDraft(request.getParameter("name"), kind.wire(), true,
                events == null ? List.of() : Arrays.asList(events), seconds, fields);
    }

    private static long id(HttpServletRequest request) {
        Long id = Params.number(request, "channel");
        if (id == null) {
            throw new ValidationException("validation.channel", "channel", "choose a channel");
        }
        return id;
    }

    /** The delivery log's page (0 = newest); anything unreadable is the first. */
    private static int page(HttpServletRequest request) {
        try {
            Long page = Params.number(request, "page");
            return page == null ? 0 : (int) Math.max(0, Math.min(100_000, page));
        } catch (ValidationException e) {
            return 0;
        }
    }

    private void render(HttpServletRequest request, HttpServletResponse response, Map<String, Object> model)
            throws IOException {
        int page = page(request);
        long total = alerts.deliveryCount();
        model.put("activeNav", "alerts");
        model.put("channels", alerts.list().stream().map(ChannelRow::of).toList());
        model.put("kinds", ChannelKind.values());
        model.put("events", Arrays.stream(AlertKind.values()).filter(k -> k != AlertKind.TEST).toList());
        model.put("deliveries", alerts.deliveries(page * PAGE, PAGE));
        model.put("page", page);
        model.put("hasNext", (long) (page + 1) * PAGE < total);
        model.put("total", total);
        view.render(request, response, "alerts/index", model, "alerts-panel");
    }
}
