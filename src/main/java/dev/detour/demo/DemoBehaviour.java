package dev.detour.demo;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * How one demo "relay" behind {@link DemoUpstream} answers. Each account's base URL ends in its
 * behaviour's path segment ({@code http://127.0.0.1:PORT/rate-limited}), so the console shows which
 * fake relay an account talks to.
 */
public enum DemoBehaviour {
    /** Answers every request at once. */
    HEALTHY("healthy"),
    /** Answers every request after {@link #SLOW_DELAY}: shows up in latency and TTFT. */
    SLOW("slow"),
    /** 429 + Retry-After on {@link #RATE_LIMITED_MODEL} only (model-scoped, C-4); other models answer. */
    RATE_LIMITED("rate-limited"),
    /** 502 on everything: the error count grows and the account cools (C-2, C-3). */
    FLAKY("flaky"),
    /** The relay's budget-pool envelope from the seed (F-5 quota → status error; F-8 reminder). */
    BUDGET_POOL("budget-pool");

    public static final String RATE_LIMITED_MODEL = "gpt-4o-2024-08-06";
    public static final int RETRY_AFTER_SECONDS = 120;
    static final Duration SLOW_DELAY = Duration.ofMillis(700);

    private final String path;

    DemoBehaviour(String path) {
        this.path = path;
    }

    /** The base-URL path segment, e.g. {@code rate-limited}. */
    public String path() {
        return path;
    }

    static Optional<DemoBehaviour> fromPath(String segment) {
        return Arrays.stream(values()).filter(b -> b.path.equals(segment)).findFirst();
    }
}
