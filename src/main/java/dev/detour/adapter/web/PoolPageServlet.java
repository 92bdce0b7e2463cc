package dev.detour.adapter.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.api.Documents;
import dev.detour.adapter.api.PoolApi;
import dev.detour.adapter.view.View;
import dev.detour.core.ValidationException;
import dev.detour.server.TakesUploads;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * W-2 console screen {@code /pool}: download the pool document (with keys only by a form that posts the
 * passphrase), paste a document to see what an import would do, then apply it. The preview and the apply are
 * the admin API's own import (a dry run, then the real one).
 */
public final class PoolPageServlet extends HttpServlet implements TakesUploads {
    /** The admin API's body cap: a document of ~2,000 accounts. */
    private static final long MAX_FILE = 1024 * 1024;

    private final PoolApi pool;
    private final ConsoleSessionAuth auth;
    private final View view;

    public PoolPageServlet(PoolApi pool, ConsoleSessionAuth auth, View view) {
        this.pool = pool;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if ("1".equals(request.getParameter("download"))) {
            download(response, pool.export(null));
            return;
        }
        view.render(request, response, "pool/index", new HashMap<>(Map.of("activeNav", "settings")), null);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String actor = auth.signedInUser(request).orElse("console");
        Map<String, Object> model = new HashMap<>(Map.of("activeNav", "settings"));
        String action = String.valueOf(request.getParameter("action"));
        String passphrase = blankToNull(request.getParameter("passphrase"));
        try {
            if (action.equals("export-keys")) {
                ObjectNode ask = Documents.JSON.createObjectNode().put("include_keys", true)
                        .put("passphrase", passphrase == null ? "" : passphrase);
                download(response, pool.export(ask));
                return;
            }
            String text = uploaded(request);
            if (text == null) {
                text = String.valueOf(request.getParameter("document"));
            }
            boolean apply = action.equals("apply");
            ObjectNode result = pool.importDocument(actor, parse(text), passphrase, !apply);
            model.put("result", result);
            model.put("changes", changes(result));
            model.put("applied", apply);
            model.put("document", text);
        } catch (ValidationException e) {
            response.setStatus(422);
            model.put("errorMessage", e.getMessage());
            model.put("errorField", e.field());
            model.put("document", request.getParameter("document"));
        }
        view.render(request, response, "pool/index", model, null);
    }

    @Override
    public MultipartConfigElement uploads() {
        // kept in memory (threshold above the cap): nothing of a pool document is written to a temporary file
        return new MultipartConfigElement("", MAX_FILE, 2 * MAX_FILE, (int) (2 * MAX_FILE));
    }

    /** W-2: a file over the 1 MiB cap (or a form over 2 MiB) is refused by the file field, nothing read or done. */
    @Override
    public void uploadRefused(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setStatus(422);
        Map<String, Object> model = new HashMap<>(Map.of("activeNav", "settings"));
        model.put("errorField", "file");
        model.put("errorKey", "pool.file.refused");
        model.put("errorMessage", "validation.import.file");
        view.render(request, response, "pool/index", model, null);
    }

    /** The chosen .json file's text, or null when the form sent none (then the pasted text counts). */
    private static String uploaded(HttpServletRequest request) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/")) {
            return null;
        }
        try {
            Part file = request.getPart("file");
            if (file == null || file.getSize() == 0) {
                return null;
            }
            try (java.io.InputStream in = file.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (ServletException | IllegalStateException e) {
            throw new ValidationException("validation.import.file", "file", "the file could not be read (at most "
                    + MAX_FILE / 1024 + " KiB): " + e.getMessage());
        }
    }

    /** One line of the diff as the page shows it. */
    public record Change(String section, String name, String action, String fields) {
    }

    private static java.util.List<Change> changes(ObjectNode result) {
        java.util.List<Change> lines = new java.util.ArrayList<>();
        for (JsonNode c : result.path("changes")) {
            java.util.List<String> fields = new java.util.ArrayList<>();
            c.path("fields").forEach(f -> fields.add(f.asText()));
            lines.add(new Change(c.path("section").asText(), c.path("name").asText(), c.path("action").asText(),
                    String.join(", ", fields)));
        }
        return lines;
    }

    private static JsonNode parse(String text) {
        try {
            return Documents.JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ValidationException("validation.import.json", "document", "the document is not valid JSON");
        }
    }

    private static void download(HttpServletResponse response, ObjectNode document) throws IOException {
        response.setContentType("application/json;charset=utf-8");
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("Content-Disposition", "attachment; filename=\"detour-pool.json\"");
        response.getOutputStream().write(Documents.JSON.writerWithDefaultPrettyPrinter()
                .writeValueAsString(document).getBytes(StandardCharsets.UTF_8));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
