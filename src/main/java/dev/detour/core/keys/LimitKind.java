package dev.detour.core.keys;

/**
 * L-1 / L-3: each per-key limit, with the {@code x-ratelimit-*-<suffix>} header suffix that names it,
 * the 429 code that refuses it and the window it is counted over (none for concurrency, which is a
 * live count). The suffixes of requests and tokens are OpenAI's own.
 */
public enum LimitKind {
    REQUESTS("requests", "key.rate_limited", LimitWindow.MINUTE),
    TOKENS("tokens", "key.token_limited", LimitWindow.MINUTE),
    CONCURRENT("concurrent", "key.concurrency_limited", null),
    SPEND_5H("spend-5h", "key.window_spend_limit", LimitWindow.FIVE_HOURS),
    SPEND_DAY("spend-day", "key.window_spend_limit", LimitWindow.DAY),
    SPEND_WEEK("spend-week", "key.window_spend_limit", LimitWindow.WEEK),
    SPEND_MONTH("spend-month", "key.window_spend_limit", LimitWindow.MONTH);

    private final String suffix;
    private final String code;
    private final LimitWindow window;

    LimitKind(String suffix, String code, LimitWindow window) {
        this.suffix = suffix;
        this.code = code;
        this.window = window;
    }

    public String suffix() {
        return suffix;
    }

    public String code() {
        return code;
    }

    /** Null for {@link #CONCURRENT}. */
    public LimitWindow window() {
        return window;
    }

    /** The kinds counted in windows (and shared through the database). */
    public boolean counted() {
        return window != null;
    }

    public static LimitKind spend(LimitWindow window) {
        for (LimitKind k : values()) {
            if (k.window == window && k.code.equals("key.window_spend_limit")) {
                return k;
            }
        }
        throw new IllegalArgumentException("no spend window " + window);
    }

    /** The kind whose suffix is {@code suffix} (the database stores it), or null. */
    public static LimitKind bySuffix(String suffix) {
        for (LimitKind k : values()) {
            if (k.suffix.equals(suffix)) {
                return k;
            }
        }
        return null;
    }
}
