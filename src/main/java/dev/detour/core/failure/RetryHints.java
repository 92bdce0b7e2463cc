package dev.detour.core.failure;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * C-4: when the upstream says when to come back. Sources, in order: {@code Retry-After} (seconds or
 * HTTP date) wins when present; otherwise the latest of {@code x-ratelimit-reset-requests/-tokens}
 * (Go durations such as {@code 1s}, {@code 6m0s}, {@code 20ms}), {@code anthropic-ratelimit-*-reset}
 * (epoch seconds or RFC 3339) and "will reset at &lt;time&gt;" in the message. Past or unreadable
 * hints are ignored. The instant is uncapped; the cap is policy (cooldown rules).
 */
public final class RetryHints {
    private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|us|µs|ns|h|m|s)");
    private static final Pattern GO_DURATION = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|us|µs|ns|h|m|s))+");
    private static final Pattern DECIMAL = Pattern.compile("\\d+(?:\\.\\d+)?");
    private static final Pattern WILL_RESET = Pattern.compile(
            "will reset at\\s+(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2}|\\s*UTC|\\s*GMT)?"
                    + "|\\d{9,}|[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT)",
            Pattern.CASE_INSENSITIVE);

    private RetryHints() {
    }

    /** The uncapped moment the upstream named, or null (every source counts). */
    public static Instant resetAt(Map<String, String> headers, String message, Instant now) {
        return resetAt(headers, message, now, true);
    }

    /**
     * C-4': {@code Retry-After} always counts; the reset hints ({@code x-ratelimit-reset-*},
     * {@code anthropic-ratelimit-*-reset}, "will reset at") only when {@code withResetHints} — the caller
     * passes true for a 429 or a quota answer. On any other status they describe the account's
     * ordinary rate-limit window (OpenAI sends them on every answer), not a reason to stay away: a 503
     * with {@code x-ratelimit-reset-requests: 25m} is an outage, not a 25-minute wait.
     */
    public static Instant resetAt(Map<String, String> headers, String message, Instant now, boolean withResetHints) {
        Instant retryAfter = retryAfter(headers.get("retry-after"), now);
        if (retryAfter != null || !withResetHints) {
            return retryAfter;
        }
        Instant best = null;
        best = later(best, goDuration(headers.get("x-ratelimit-reset-requests"), now));
        best = later(best, goDuration(headers.get("x-ratelimit-reset-tokens"), now));
        for (String anthropic : ANTHROPIC_RESETS) {
            best = later(best, epochOrRfc3339(headers.get(anthropic)));
        }
        best = later(best, willResetAt(message));
        return best != null && best.isAfter(now) ? best : null;
    }

    /** C-4': every {@code anthropic-ratelimit-*-reset} header Anthropic documents. */
    private static final String[] ANTHROPIC_RESETS = {"anthropic-ratelimit-unified-reset",
        "anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset",
        "anthropic-ratelimit-input-tokens-reset", "anthropic-ratelimit-output-tokens-reset"};

    /** Retry-After: delay seconds (integer or decimal) or an HTTP date. */
    static Instant retryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        if (DECIMAL.matcher(v).matches()) {
            Instant at = now.plus(seconds(v));
            return at.isAfter(now) ? at : null;
        }
        Instant at = httpDate(v);
        return at != null && at.isAfter(now) ? at : null;
    }

    /** Go-style duration ({@code 1h2m3.5s}, {@code 20ms}) or bare seconds, from now. */
    static Instant goDuration(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        if (DECIMAL.matcher(v).matches()) {
            return now.plus(seconds(v));
        }
        if (!GO_DURATION.matcher(v).matches()) {
            return null;
        }
        Duration total = Duration.ZERO;
        Matcher m = GO_DURATION_PART.matcher(v);
        while (m.find()) {
            total = total.plus(unit(new BigDecimal(m.group(1)), m.group(2)));
        }
        return now.plus(total);
    }

    static Instant epochOrRfc3339(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        if (DECIMAL.matcher(v).matches()) {
            return Instant.ofEpochMilli(new BigDecimal(v).movePointRight(3).longValue());
        }
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** "… will reset at 2026-09-03 04:00:00" (no zone = UTC), RFC 3339, epoch seconds or an HTTP date. */
    static Instant willResetAt(String message) {
        if (message == null) {
            return null;
        }
        Matcher m = WILL_RESET.matcher(message);
        if (!m.find()) {
            return null;
        }
        String raw = m.group(1).trim();
        if (raw.chars().allMatch(Character::isDigit)) {
            return epochOrRfc3339(raw);
        }
        Instant date = httpDate(raw);
        return date != null ? date : isoLike(raw);
    }

    private static Instant isoLike(String raw) {
        String v = raw.replaceFirst("(?i)\\s*(UTC|GMT)$", "Z").replace(' ', 'T');
        try {
            return OffsetDateTime.parse(v).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(v).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    private static Instant httpDate(String v) {
        try {
            return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME.withLocale(Locale.ROOT)).toInstant();
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static Duration seconds(String decimal) {
        return Duration.ofMillis(new BigDecimal(decimal).movePointRight(3).longValue());
    }

    private static Duration unit(BigDecimal amount, String unit) {
        return switch (unit) {
            case "h" -> Duration.ofMillis(amount.multiply(BigDecimal.valueOf(3_600_000)).longValue());
            case "m" -> Duration.ofMillis(amount.multiply(BigDecimal.valueOf(60_000)).longValue());
            case "s" -> Duration.ofMillis(amount.movePointRight(3).longValue());
            case "ms" -> Duration.ofMillis(amount.longValue());
            default -> Duration.ofNanos(amount.multiply(BigDecimal.valueOf(unit.equals("ns") ? 1 : 1000)).longValue());
        };
    }

    private static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b != null && b.isAfter(a) ? b : a;
    }
}
