package dev.detour.adapter.web;

import dev.detour.recovery.RouteChecks;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The answer to an E-1 "check now", carried through the redirect back to {@code /my} (POST →
 * 303 → GET): a stable code ({@code my.check.<outcome>}), the model and the seconds to wait.
 * Only known codes are shown, so a crafted link can print nothing but the page's own sentences.
 */
public record CheckNotice(String code, String model, long seconds, int queued) {
    static final String PARAM = "check";

    static String location(String model, RouteChecks.Answer answer) {
        long seconds = answer.retryInSeconds();
        return "/my?" + PARAM + "=" + answer.outcome().wire() + "&checked=" + encode(model) + "&queued="
                + answer.queued() + "&wait=" + seconds + "#model-" + encode(model);
    }

    static Optional<CheckNotice> fromQuery(HttpServletRequest request) {
        String outcome = request.getParameter(PARAM);
        if (outcome == null || Arrays.stream(RouteChecks.Outcome.values()).noneMatch(o -> o.wire().equals(outcome))) {
            return Optional.empty();
        }
        return Optional.of(new CheckNotice("my.check." + outcome, request.getParameter("checked"),
                number(request.getParameter("wait")), (int) number(request.getParameter("queued"))));
    }

    private static long number(String value) {
        try {
            return value == null ? 0 : Math.max(0, Math.min(86_400, Long.parseLong(value)));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
