package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.AuditLog;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/** U-6 audit log page: who, what, when, before/after (JSON already free of secrets), newest first. */
public final class AuditPageServlet extends HttpServlet {
    private final transient AuditLog audit;
    private final transient View view;

    public AuditPageServlet(AuditLog audit, View view) {
        this.audit = audit;
        this.view = view;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        view.render(request, response, "audit/list", Map.of("activeNav", "audit", "entries", audit.recent(200)), null);
    }
}
