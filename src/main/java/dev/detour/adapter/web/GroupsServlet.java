package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.ConflictException;
import dev.detour.admin.GroupPatch;
import dev.detour.admin.GroupRules;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * U-5 groups under {@code /groups/*}: the list with a create form, {@code /groups/{id}} to edit name,
 * price ratio (a multiplier such as 1.5, stored as ppm), colour and the S-9 halt policy. Saved → 303 to
 * the list. A halted group shows its time remaining, counting down; htmx polls the rows every 5 s.
 */
public final class GroupsServlet extends HttpServlet {
    private final ConsolePool pool;
    private final ConsoleSessionAuth auth;
    private final View view;

    public GroupsServlet(ConsolePool pool, ConsoleSessionAuth auth, View view) {
        this.pool = pool;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Long id = id(request);
        try {
            page(request, response, id == null ? null : pool.groups().get(id), Map.of());
        } catch (NotFoundException e) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Long id = id(request);
        String actor = FieldErrors.actor(auth, request);
        try {
            GroupPatch patch = new GroupPatch(request.getParameter("name"), ratioPpm(request.getParameter("ratio")),
                    blankToNull(request.getParameter("color")), "on".equals(request.getParameter("halt_policy")) ? "on" : "off");
            if (id == null) {
                pool.groups().create(actor, patch);
            } else {
                pool.groups().update(actor, id, patch);
            }
            pool.afterChange().run();
            response.setStatus(HttpServletResponse.SC_SEE_OTHER);
            response.setHeader("Location", "/groups");
        } catch (ValidationException e) {
            response.setStatus(422);
            page(request, response, id == null ? null : pool.groups().get(id), FieldErrors.of(request, e));
        } catch (ConflictException e) {
            response.setStatus(409);
            page(request, response, id == null ? null : pool.groups().get(id), FieldErrors.of(request, e));
        } catch (NotFoundException e) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    private void page(HttpServletRequest request, HttpServletResponse response, AccountGroup editing,
            Map<String, String> errors) throws IOException {
        Map<String, Object> model = new HashMap<>();
        List<AccountGroup> groups = pool.groups().list();
        model.put("activeNav", "groups");
        model.put("groups", groups);
        model.put("haltSeconds", groups.stream().collect(Collectors.toMap(AccountGroup::id, pool.groups()::haltedRemainingSeconds)));
        // D-4: a group Detour cannot read keeps its accounts out of routing until it is saved again
        Map<Long, String> unreadable = new HashMap<>();
        groups.forEach(g -> {
            String error = GroupRules.configError(g.ratioPpm(), g.haltPolicy());
            if (error != null) {
                unreadable.put(g.id(), error);
            }
        });
        model.put("groupErrors", unreadable);
        model.put("editing", editing);
        model.put("errors", errors);
        model.put("pollUrl", View.requestPath(request));
        view.render(request, response, "groups/list", model, "group-rows");
    }

    /** "1.5" → 1,500,000 ppm; blank → keep / default. */
    static Long ratioPpm(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return new BigDecimal(raw.strip()).movePointRight(6).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new ValidationException("validation.ratio_ppm", "ratio_ppm", "the ratio is a number such as 1 or 1.5");
        }
    }

    private static Long id(HttpServletRequest request) {
        String info = request.getPathInfo();
        if (info == null || info.equals("/")) {
            return null;
        }
        try {
            return Long.parseLong(info.substring(1));
        } catch (NumberFormatException e) {
            return -1L;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
