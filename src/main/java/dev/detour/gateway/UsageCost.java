package dev.detour.gateway;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * S-7: the cost an upstream reported in its usage ({@code "usage": {..., "cost": 0.00012}}, in
 * currency units), as micros; -1 when absent. Works on a buffered body or one SSE frame's data
 * (OpenAI's final usage chunk, Anthropic's {@code message_delta}). A cheap scan: only bodies that
 * contain {@code "cost"} are looked at; usage may hold one level of nested details before it.
 */
final class UsageCost {
    private static final Pattern COST = Pattern.compile("\"usage\"\\s*:\\s*\\{(?:[^{}]|\\{[^{}]*\\})*?\"cost\"\\s*:\\s*([0-9.eE+-]+)");
    private static final byte[] COST_NAME = "\"cost\"".getBytes(StandardCharsets.US_ASCII);

    private UsageCost() {
    }

    static long micros(byte[] body) {
        return body == null ? -1 : micros(body, 0, body.length);
    }

    static long micros(byte[] bytes, int offset, int length) {
        if (length <= 0 || !UsageExtractor.contains(bytes, offset, length, COST_NAME)) {
            return -1;
        }
        String text = new String(bytes, offset, length, StandardCharsets.UTF_8);
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
