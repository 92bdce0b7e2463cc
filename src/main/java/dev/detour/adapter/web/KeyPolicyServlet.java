package dev.detour.adapter.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.view.View;
import dev.detour.admin.KeyAdmin;
import dev.detour.admin.KeyPatch;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import dev.detour.gateway.live.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * K-1 console policy editor at {@code /keys/{id}/policy} (the key list lives at {@code /keys}):
 * every policy field, enable/disable, rotate (new secret shown once) and delete.
 */
final class KeyPolicyServlet extends HttpServlet {
    private final transient KeyAdmin keys;
    private final transient PoolSnapshot snapshot;
    private final transient View view;

    KeyPolicyServlet(KeyAdmin keys, PoolSnapshot snapshot, View view) {
        this.keys = keys;
        this.snapshot = snapshot;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Long id = keyId(request, "policy");
        if (id == null) {
            response.sendError(404);
            return;
        }
        try {
            render(request, response, Documents.key(keys.get(id)), null, null, false);
        } catch (NotFoundException e) {
            response.sendError(404);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String[] parts = parts(request);
        Long id = parts.length == 2 ? parse(parts[0]) : null;
        if (id == null) {
            response.sendError(404);
            return;
        }
        try {
            switch (parts[1]) {
                case "policy" -> save(request, response, id);
                case "rotate" -> {
                    KeyAdmin.CreatedKey rotated = keys.rotate(Actors.of(request), id);
                    snapshot.reload();
                    render(request, response, Documents.key(rotated.stored()), null, rotated.key(), false);
                }
                case "delete" -> {
                    keys.delete(Actors.of(request), id);
                    snapshot.reload();
                    response.setStatus(303);
                    response.setHeader("Location", "/keys");
                }
                default -> response.sendError(404);
            }
        } catch (NotFoundException e) {
            response.sendError(404);
        }
    }

    private void save(HttpServletRequest request, HttpServletResponse response, long id) throws IOException {
        ObjectNode body = formToJson(request);
        try {
            ObjectNode saved = Documents.key(keys.update(Actors.of(request), id, KeyPatch.parse(body)));
            snapshot.reload();
            render(request, response, saved, null, null, true);
        } catch (ValidationException e) {
            response.setStatus(422);
            ObjectNode shown = Documents.key(keys.get(id));
            render(request, response, shown, e, null, false);
        }
    }

    /** The form's fields as the admin API's key body (the same validation, codes validation.key_policy.*). */
    static ObjectNode formToJson(HttpServletRequest r) {
        ObjectNode o = Documents.JSON.createObjectNode();
        o.put("name", r.getParameter("name"));
        o.put("enabled", r.getParameter("enabled") != null);
        String expires = r.getParameter("expires_at");
        o.put("expires_at", expires == null || expires.isBlank() ? null : expires.trim());
        o.set("allowed_models", list(r.getParameter("allowed_models"), false));
        ObjectNode groups = o.putObject("groups");
        groups.put("include_future", r.getParameter("include_future") != null);
        groups.set("include", list(r.getParameter("include"), true));
        groups.set("exclude", list(r.getParameter("exclude"), true));
        o.set("max_ratio_ppm", number(r.getParameter("max_ratio_ppm")));
        o.put("strategy", r.getParameter("strategy"));
        o.set("max_attempts", number(r.getParameter("max_attempts")));
        o.putObject("balanced_weights").set("stability", number(r.getParameter("w_stability")));
        ((ObjectNode) o.get("balanced_weights")).set("price", number(r.getParameter("w_price")));
        ((ObjectNode) o.get("balanced_weights")).set("latency", number(r.getParameter("w_latency")));
        o.set("manual_group_order", list(r.getParameter("manual_group_order"), true));
        o.set("affinity_premium_pct", number(r.getParameter("affinity_premium_pct")));
        String limit = r.getParameter("spend_limit");
        o.set("spend_limit", limit == null || limit.isBlank() ? null : decimal(limit));
        o.set("rpm_limit", number(r.getParameter("rpm_limit"))); // L-1: empty = none
        o.set("tpm_limit", number(r.getParameter("tpm_limit")));
        o.set("concurrency_limit", number(r.getParameter("concurrency_limit")));
        ObjectNode windows = o.putObject("spend_windows");
        for (String w : new String[] {"5h", "day", "week", "month"}) {
            windows.set(w, number(r.getParameter("spend_" + w)));
        }
        return o;
    }

    private static ArrayNode list(String text, boolean numbersWhenNumeric) {
        ArrayNode out = Documents.JSON.createArrayNode();
        if (text != null) {
            for (String part : text.split(",")) {
                String p = part.trim();
                if (p.isEmpty()) {
                    continue;
                }
                if (numbersWhenNumeric && p.matches("[0-9]{1,18}")) {
                    out.add(Long.parseLong(p));
                } else {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** A whole number when it is one; otherwise the text, so the policy check names the field. */
    private static JsonNode number(String text) {
        if (text == null || text.isBlank()) {
            return Documents.JSON.nullNode();
        }
        try {
            return Documents.JSON.getNodeFactory().numberNode(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Documents.JSON.getNodeFactory().textNode(text);
        }
    }

    private static JsonNode decimal(String text) {
        try {
            return Documents.JSON.getNodeFactory().numberNode(new java.math.BigDecimal(text.trim()));
        } catch (NumberFormatException e) {
            return Documents.JSON.getNodeFactory().textNode(text);
        }
    }

    private void render(HttpServletRequest request, HttpServletResponse response, ObjectNode key,
            ValidationException error, String newKey, boolean saved) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("key", Documents.JSON.convertValue(key, Map.class));
        model.put("error", error == null ? null : Map.of("code", error.code(), "message", error.getMessage(),
                "field", String.valueOf(error.field())));
        model.put("newKey", newKey);
        model.put("saved", saved);
        model.put("activeNav", "keys");
        view.render(request, response, "keys/policy", model, null);
    }

    private static Long keyId(HttpServletRequest request, String action) {
        String[] parts = parts(request);
        return parts.length == 2 && parts[1].equals(action) ? parse(parts[0]) : null;
    }

    private static String[] parts(HttpServletRequest request) {
        String info = request.getPathInfo();
        return info == null ? new String[0] : info.replaceFirst("^/", "").split("/");
    }

    private static Long parse(String s) {
        try {
            long id = Long.parseLong(s);
            return id > 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
