package dev.detour.demo;

import dev.detour.admin.AccountAdmin;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.KeyAdmin;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Demo mode ({@code DETOUR_DEMO=true}): the demo relays, the sample pool and the trickle,
 * started after Detour listens and stopped first when it closes.
 */
public final class DemoMode implements AutoCloseable {
    static final Duration TRICKLE_PERIOD = Duration.ofSeconds(3);
    private static final String TRY_BODY = "{\"model\":\"gpt-4o\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private static final Logger log = LoggerFactory.getLogger(DemoMode.class);

    private final DemoSeed seed;
    private final Runnable reloadPool;
    private final String passwordBanner;
    private DemoUpstream upstream;
    private DemoTrickle trickle;

    /** {@code reloadPool} makes the gateway see the seeded accounts at once. */
    public DemoMode(GroupAdmin groups, AccountAdmin accounts, KeyAdmin keys, Runnable reloadPool,
            DemoCredentials credentials) {
        this.seed = new DemoSeed(groups, accounts, keys);
        this.reloadPool = reloadPool;
        this.passwordBanner = credentials.banner();
    }

    /** Starts the relays, seeds (or re-points) the sample pool, starts the trickle and says where to look. */
    public synchronized void start(String bind, int port) {
        upstream = DemoUpstream.start();
        DemoSeed.Outcome outcome = seed.apply(upstream);
        reloadPool.run();
        String origin = "http://" + loopbackHost(bind) + ":" + port;
        trickle = new DemoTrickle(origin, outcome.key());
        trickle.start(TRICKLE_PERIOD);
        log.info("demo mode: {} sample accounts on the demo upstream at port {} ({} created, {} re-pointed)",
                DemoPool.ACCOUNTS.size(), upstream.port(), outcome.accountsCreated(), outcome.accountsMoved());
        System.out.println(banner(origin, outcome.key())); // on stdout: `mvnw -q` hides log lines
    }

    /** Printed once per start: a demo key and a demo password may be shown, nothing of a real pool is. */
    private String banner(String origin, String key) {
        String curl = "curl " + origin + "/v1/chat/completions -H 'Authorization: Bearer " + key
                + "' -H 'Content-Type: application/json' -d '" + TRY_BODY + "'";
        return String.join(System.lineSeparator(),
                "",
                "==> Detour DEMO MODE: a sample pool on a built-in fake upstream, no real API is called",
                "    console   " + origin + "/  (user admin, " + passwordBanner + ")",
                "    demo key  " + key + "  (a new one at every start)",
                "    try       " + curl,
                "    a request goes through the pool every " + TRICKLE_PERIOD.toSeconds()
                        + " s; within a minute the accounts page shows errors, cooldowns and a reminder",
                "");
    }

    public synchronized DemoUpstream upstream() {
        return upstream;
    }

    /** The background traffic; tests stop its loop and call {@link DemoTrickle#tick()} themselves. */
    public synchronized DemoTrickle trickle() {
        return trickle;
    }

    @Override
    public synchronized void close() {
        if (trickle != null) {
            trickle.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    /** Detour's own address as seen from this host: a wildcard bind is reached over 127.0.0.1. */
    public static String loopbackHost(String bind) {
        if (bind == null || bind.isBlank() || bind.equals("0.0.0.0") || bind.equals("::") || bind.equals("[::]")) {
            return "127.0.0.1";
        }
        return bind.contains(":") && !bind.startsWith("[") ? "[" + bind + "]" : bind;
    }
}
