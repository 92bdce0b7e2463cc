package dev.detour.adapter.web;

import dev.detour.adapter.view.View;
import dev.detour.admin.AuditLog;
import dev.detour.admin.usage.Breakdowns;
import dev.detour.admin.usage.Dashboard;
import dev.detour.admin.port.EventNames;
import dev.detour.admin.RequestLog;
import dev.detour.admin.SiteSettings;
import jakarta.servlet.http.HttpServlet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The operator's console screens (U-5, U-6): request log, audit log, settings; plus the dashboard's data and its
 * breakdowns (U-8), and the names the log shows (U-7).
 */
public record OperatingPages(RequestLog requestLog, AuditLog audit, SiteSettings settings, Dashboard dashboard,
        Breakdowns breakdowns, EventNames.Source names) {
    public static final Set<String> PATHS = Set.of("/requests", "/audit", "/settings");

    Map<String, HttpServlet> routes(ConsoleSessionAuth auth, View view) {
        Map<String, HttpServlet> routes = new LinkedHashMap<>();
        routes.put("/requests/*", new ConsoleGate(new RequestsPageServlet(requestLog, names, view), auth, view));
        routes.put("/audit", new ConsoleGate(new AuditPageServlet(audit, view), auth, view));
        routes.put("/settings", new ConsoleGate(new SettingsPageServlet(settings, auth, view), auth, view));
        return routes;
    }
}
