package dev.detour.admin;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * U-1 failed sign-in throttle, count-based per fixed window: after {@code perUsername} failures
 * for one username, or {@code perIp} failures from one address, within {@code window}, further
 * attempts are refused until the window that started with the first failure ends. Kept in memory
 * per instance: it slows guessing, it is not an account lock-out.
 */
public final class LoginThrottle {
    private static final int PRUNE_ABOVE = 10_000;

    private final Clock clock;
    private final int perUsername;
    private final int perIp;
    private final Duration window;
    private final Map<String, Window> failures = new ConcurrentHashMap<>();

    public LoginThrottle(Clock clock, int perUsername, int perIp, Duration window) {
        this.clock = clock;
        this.perUsername = perUsername;
        this.perIp = perIp;
        this.window = window;
    }

    /** 5 per username and 20 per address in 15 minutes. */
    public static LoginThrottle standard(Clock clock) {
        return new LoginThrottle(clock, 5, 20, Duration.ofMinutes(15));
    }

    /** How long this attempt must wait; {@link Duration#ZERO} when it may go ahead. */
    public Duration blockedFor(String ip, String username) {
        Instant now = clock.instant();
        Duration byUser = remaining(userKey(username), perUsername, now);
        Duration byIp = remaining(ipKey(ip), perIp, now);
        return byUser.compareTo(byIp) >= 0 ? byUser : byIp;
    }

    public void recordFailure(String ip, String username) {
        Instant now = clock.instant();
        if (failures.size() > PRUNE_ABOVE) {
            failures.values().removeIf(w -> w.expired(now));
        }
        failures.compute(userKey(username), (k, w) -> Window.next(w, now, window));
        failures.compute(ipKey(ip), (k, w) -> Window.next(w, now, window));
    }

    /** A good password clears that username's count (the address count stays: it guards all names). */
    public void recordSuccess(String username) {
        failures.remove(userKey(username));
    }

    private Duration remaining(String key, int limit, Instant now) {
        Window w = failures.get(key);
        if (w == null || w.expired(now) || w.count() < limit) {
            return Duration.ZERO;
        }
        return Duration.between(now, w.endsAt());
    }

    private static String userKey(String username) {
        return "u:" + (username == null ? "" : username.trim().toLowerCase(Locale.ROOT));
    }

    private static String ipKey(String ip) {
        return "ip:" + ip;
    }

    private record Window(Instant endsAt, int count) {
        boolean expired(Instant now) {
            return !now.isBefore(endsAt);
        }

        static Window next(Window current, Instant now, Duration length) {
            return current == null || current.expired(now)
                    ? new Window(now.plus(length), 1)
                    : new Window(current.endsAt, current.count + 1);
        }
    }
}
