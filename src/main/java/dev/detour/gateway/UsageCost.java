package dev.detour.gateway;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * S-7: the cost an upstream reported in its usage ({@code "usage": {..., "cost": 0.00012}}, in
 * currency units), as micros; -1 when absent. A cheap scan: only bodies that contain
 * {@code "cost"} are looked at.
 */
final class UsageCost {
    private static final Pattern COST = Pattern.compile("\"usage\"\\s*:\\s*\\{[^{}]*?\"cost\"\\s*:\\s*([0-9.eE+-]+)");

    private UsageCost() {
    }

    static long micros(byte[] body) {
        if (body == null || body.length == 0) {
            return -1;
        }
        String text = new String(body, StandardCharsets.UTF_8);
        if (!text.contains("\"cost\"")) {
            return -1;
        }
        Matcher m = COST.matcher(text);
        if (!m.find()) {
            return -1;
        }
        try {
            double cost = Double.parseDouble(m.group(1));
            return cost < 0 || Double.isNaN(cost) ? -1 : Math.round(cost * 1_000_000d);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
