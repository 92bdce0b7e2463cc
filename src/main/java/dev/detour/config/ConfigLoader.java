package dev.detour.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * Reads {@link DetourConfig} from environment variables, with system properties of the same name
 * in lower-case dotted form ({@code DETOUR_DB_URL} → {@code detour.db.url}) taking precedence.
 * Every bad value fails with one line naming the variable (SPEC O-1).
 */
public final class ConfigLoader {
    static final int MIN_ADMIN_TOKEN = 32;

    private final Function<String, String> lookup;

    public ConfigLoader(Map<String, String> env, Properties props) {
        this.lookup = name -> {
            String fromProps = props.getProperty(name.toLowerCase().replace('_', '.'));
            return fromProps != null ? fromProps : env.get(name);
        };
    }

    public static DetourConfig fromSystem() {
        return new ConfigLoader(System.getenv(), System.getProperties()).load();
    }

    public DetourConfig load() {
        boolean demo = bool("DETOUR_DEMO");
        Optional<String> dbUrl = text("DETOUR_DB_URL").map(this::jdbcUrl);
        if (demo && dbUrl.isPresent()) {
            // the demo seeds sample accounts: it must never write into a real (external) pool
            throw fail("DETOUR_DEMO", "demo mode runs only on the embedded database; unset DETOUR_DB_URL");
        }
        // the demo keeps its embedded database apart from a real pool's ./data
        String defaultDataDir = demo ? "./data/demo" : "./data";
        return new DetourConfig(
                text("DETOUR_BIND").orElse("127.0.0.1"),
                integer("DETOUR_PORT", 8080, 0, 65535),
                Path.of(text("DETOUR_DATA_DIR").orElse(defaultDataDir)).toAbsolutePath().normalize(),
                dbUrl,
                text("DETOUR_DB_USER"),
                text("DETOUR_DB_PASSWORD"),
                text("DETOUR_MASTER_KEY").map(this::masterKey),
                text("DETOUR_ADMIN_PASSWORD").map(this::adminPassword),
                text("DETOUR_ADMIN_TOKEN").map(this::adminToken),
                Duration.ofSeconds(integer("DETOUR_CONNECT_TIMEOUT_SECONDS", 20, 1, 600)),
                Duration.ofSeconds(integer("DETOUR_READ_TIMEOUT_SECONDS", 180, 1, 3600)),
                Duration.ofSeconds(integer("DETOUR_RECOVERY_TICK_SECONDS", 30, 1, 3600)),
                text("DETOUR_TRUSTED_PROXIES").map(this::proxies).orElse(List.of()),
                Duration.ofSeconds(integer("DETOUR_SHUTDOWN_GRACE_SECONDS", 30, 0, 3600)),
                demo,
                clientLimits(),
                // S-5 override: 2 or more fixes the instance count (ceil(max_in_flight / N) each); 1 leaves it to G-2
                integer("DETOUR_INSTANCES", DetourConfig.SINGLE_INSTANCE, 1, 1000),
                // W-1: alert channels reach loopback and private addresses only when the operator says so
                bool("DETOUR_ALERT_PRIVATE_TARGETS"),
                journalMemory());
    }

    /** D-2: {@code DETOUR_JOURNAL_MEMORY_DIR}, an absolute folder (a tmpfs), or "off"; unset: /dev/shm. */
    private Optional<Path> journalMemory() {
        Optional<String> raw = text("DETOUR_JOURNAL_MEMORY_DIR");
        if (raw.isEmpty()) {
            return DetourConfig.DEFAULT_JOURNAL_MEMORY;
        }
        if (raw.get().equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        Path folder = Path.of(raw.get());
        if (!folder.isAbsolute()) {
            throw fail("DETOUR_JOURNAL_MEMORY_DIR", "must be an absolute folder on a memory file system (tmpfs) or"
                    + " off, got '" + raw.get() + "'");
        }
        return Optional.of(folder.normalize());
    }

    /** slow and greedy clients (defaults in {@link ClientLimits#DEFAULTS}). */
    private ClientLimits clientLimits() {
        ClientLimits d = ClientLimits.DEFAULTS;
        return new ClientLimits(
                Duration.ofSeconds(integer("DETOUR_CLIENT_TIMEOUT_SECONDS", (int) d.requestTimeout().toSeconds(), 1,
                        3600)),
                integer("DETOUR_MIN_REQUEST_BYTES_PER_SECOND", d.minRequestBytesPerSecond(), 0, 1 << 30),
                integer("DETOUR_MAX_CONNECTIONS_PER_ADDRESS", d.maxConnectionsPerAddress(), 1, 1_000_000),
                integer("DETOUR_MAX_ANONYMOUS_SESSIONS", d.maxAnonymousSessions(), 1, 10_000_000),
                integer("DETOUR_BODY_BUDGET_MB", (int) (d.bodyBudgetBytes() >> 20), 32, 1 << 20) * (1L << 20));
    }

    private Optional<String> text(String name) {
        String value = lookup.apply(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    private boolean bool(String name) {
        Optional<String> raw = text(name).map(v -> v.toLowerCase(java.util.Locale.ROOT));
        if (raw.isEmpty() || raw.get().equals("false") || raw.get().equals("0")) {
            return false;
        }
        if (raw.get().equals("true") || raw.get().equals("1")) {
            return true;
        }
        throw fail(name, "must be true or false, got '" + raw.get() + "'");
    }

    private int integer(String name, int fallback, int min, int max) {
        Optional<String> raw = text(name);
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(raw.get());
            if (value < min || value > max) {
                throw fail(name, "must be between " + min + " and " + max + ", got " + value);
            }
            return value;
        } catch (NumberFormatException e) {
            throw fail(name, "must be a whole number, got '" + raw.get() + "'");
        }
    }

    private String jdbcUrl(String url) {
        if (!url.startsWith("jdbc:mariadb:") && !url.startsWith("jdbc:mysql:")) {
            throw fail("DETOUR_DB_URL", "must be a jdbc:mariadb:// URL");
        }
        return url;
    }

    private byte[] masterKey(String value) {
        try {
            byte[] key = Base64.getDecoder().decode(value);
            if (key.length != 32) {
                throw fail("DETOUR_MASTER_KEY", "must decode to 32 bytes, got " + key.length);
            }
            return key;
        } catch (IllegalArgumentException e) {
            throw fail("DETOUR_MASTER_KEY", "must be base64");
        }
    }

    private String adminPassword(String value) {
        if (value.length() < 8) {
            throw fail("DETOUR_ADMIN_PASSWORD", "must be at least 8 characters");
        }
        return value;
    }

    /** the token guards every admin action over the network; a short one is guessable offline or online. */
    private String adminToken(String value) {
        if (value.length() < MIN_ADMIN_TOKEN) {
            throw fail("DETOUR_ADMIN_TOKEN", "must be at least " + MIN_ADMIN_TOKEN + " characters, got " + value.length()
                    + " (e.g. openssl rand -hex 24)");
        }
        return value;
    }

    private List<String> proxies(String value) {
        List<String> list = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        for (String entry : list) {
            if (!entry.matches("[0-9a-fA-F:.]+(/\\d{1,3})?")) {
                throw fail("DETOUR_TRUSTED_PROXIES", "'" + entry + "' is not an IP address or CIDR range");
            }
        }
        return list;
    }

    private static ConfigException fail(String name, String problem) {
        return new ConfigException(name + ": " + problem);
    }
}
