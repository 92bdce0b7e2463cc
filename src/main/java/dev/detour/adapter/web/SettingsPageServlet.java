package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.port.SettingField;
import dev.detour.admin.SiteSettings;
import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/** U-5 settings page: the runtime settings form; a valid save applies at once (no restart). */
public final class SettingsPageServlet extends HttpServlet {
    private final transient SiteSettings settings;
    private final transient ConsoleSessionAuth auth;
    private final transient View view;

    public SettingsPageServlet(SiteSettings settings, ConsoleSessionAuth auth, View view) {
        this.settings = settings;
        this.auth = auth;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        settings.current().values().forEach((k, v) -> values.put(k, Long.toString(v)));
        render(request, response, values, null, "saved".equals(request.getParameter("done")));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Map<String, String> submitted = new LinkedHashMap<>();
        for (SettingField field : SettingField.ALL) {
            String value = request.getParameter(field.name());
            if (value != null) {
                submitted.put(field.name(), value.trim());
            }
        }
        try {
            settings.update(submitted, auth.signedInUser(request).orElse("console"));
            response.setStatus(303);
            response.setHeader("Location", "/settings?done=saved");
        } catch (ValidationException e) {
            response.setStatus(422);
            Map<String, String> values = new LinkedHashMap<>();
            settings.current().values().forEach((k, v) -> values.put(k, Long.toString(v)));
            values.putAll(submitted);
            render(request, response, values, e, false);
        }
    }

    private void render(HttpServletRequest request, HttpServletResponse response, Map<String, String> values,
            ValidationException error, boolean saved) throws IOException {
        Map<String, Object> model = new HashMap<>();
        model.put("activeNav", "settings");
        model.put("fields", SettingField.ALL);
        model.put("values", values);
        model.put("errorField", error == null ? "" : error.field());
        model.put("errorCode", error == null ? "" : error.code());
        model.put("saved", saved);
        model.put("unreadable", settings.unreadable()); // D-4: stored values replaced by their default
        view.render(request, response, "settings/form", model, null);
    }
}
