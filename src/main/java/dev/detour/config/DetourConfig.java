package dev.detour.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything Detour reads from its environment (SPEC O-1). Built once at start-up by
 * {@link ConfigLoader}; immutable afterwards.
 */
public record DetourConfig(
        String bind,
        int port,
        Path dataDir,
        Optional<String> dbUrl,
        Optional<String> dbUser,
        Optional<String> dbPassword,
        Optional<byte[]> masterKey,
        Optional<String> adminPassword,
        Optional<String> adminToken,
        Duration connectTimeout,
        Duration readTimeout,
        Duration recoveryTick,
        List<String> trustedProxies,
        Duration shutdownGrace,
        boolean demo,
        ClientLimits clientLimits,
        int instances,
        boolean alertPrivateTargets,
        Optional<Path> journalMemory) {

    /**
     * D-2: where the event journal maps its segments when that is a memory file system ({@code
     * DETOUR_JOURNAL_MEMORY_DIR}; "off": in the data dir). The segments are copied into the data dir at each sync.
     */
    public static final Optional<Path> DEFAULT_JOURNAL_MEMORY = Optional.of(Path.of("/dev/shm"));

    /** Without the journal's memory folder: {@link #DEFAULT_JOURNAL_MEMORY}. */
    public DetourConfig(String bind, int port, Path dataDir, Optional<String> dbUrl, Optional<String> dbUser,
            Optional<String> dbPassword, Optional<byte[]> masterKey, Optional<String> adminPassword,
            Optional<String> adminToken, Duration connectTimeout, Duration readTimeout, Duration recoveryTick,
            List<String> trustedProxies, Duration shutdownGrace, boolean demo, ClientLimits clientLimits,
            int instances, boolean alertPrivateTargets) {
        this(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits, instances,
                alertPrivateTargets, DEFAULT_JOURNAL_MEMORY);
    }

    /** Without the alert target setting: alert channels may not reach loopback or private addresses. */
    public DetourConfig(String bind, int port, Path dataDir, Optional<String> dbUrl, Optional<String> dbUser,
            Optional<String> dbPassword, Optional<byte[]> masterKey, Optional<String> adminPassword,
            Optional<String> adminToken, Duration connectTimeout, Duration readTimeout, Duration recoveryTick,
            List<String> trustedProxies, Duration shutdownGrace, boolean demo, ClientLimits clientLimits,
            int instances) {
        this(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits, instances, false);
    }

    /** S-5: how many instances share the pool when no live count says otherwise ({@code DETOUR_INSTANCES}). */
    public static final int SINGLE_INSTANCE = 1;

    /** Without the instance count: one instance (the shape every caller used before it). */
    public DetourConfig(String bind, int port, Path dataDir, Optional<String> dbUrl, Optional<String> dbUser,
            Optional<String> dbPassword, Optional<byte[]> masterKey, Optional<String> adminPassword,
            Optional<String> adminToken, Duration connectTimeout, Duration readTimeout, Duration recoveryTick,
            List<String> trustedProxies, Duration shutdownGrace, boolean demo, ClientLimits clientLimits) {
        this(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits, SINGLE_INSTANCE);
    }

    /** Without X-4 client limits: the shape every caller used before them (defaults apply). */
    public DetourConfig(String bind, int port, Path dataDir, Optional<String> dbUrl, Optional<String> dbUser,
            Optional<String> dbPassword, Optional<byte[]> masterKey, Optional<String> adminPassword,
            Optional<String> adminToken, Duration connectTimeout, Duration readTimeout, Duration recoveryTick,
            List<String> trustedProxies, Duration shutdownGrace, boolean demo) {
        this(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, ClientLimits.DEFAULTS);
    }

    /** Without demo mode: the shape every caller used before {@code DETOUR_DEMO}. */
    public DetourConfig(String bind, int port, Path dataDir, Optional<String> dbUrl, Optional<String> dbUser,
            Optional<String> dbPassword, Optional<byte[]> masterKey, Optional<String> adminPassword,
            Optional<String> adminToken, Duration connectTimeout, Duration readTimeout, Duration recoveryTick,
            List<String> trustedProxies, Duration shutdownGrace) {
        this(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, false, ClientLimits.DEFAULTS);
    }

    public boolean embeddedDatabase() {
        return dbUrl.isEmpty();
    }

    /** A config for tests and tools: defaults, with the given data dir and port. */
    public static DetourConfig defaults(Path dataDir, int port) {
        return new DetourConfig("127.0.0.1", port, dataDir, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                Duration.ofSeconds(20), Duration.ofSeconds(180), Duration.ofSeconds(30),
                List.of(), Duration.ofSeconds(30));
    }

    public DetourConfig withDatabase(String url, String user, String password) {
        return new DetourConfig(bind, port, dataDir, Optional.of(url), Optional.ofNullable(user),
                Optional.ofNullable(password), masterKey, adminPassword, adminToken, connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits, instances,
                alertPrivateTargets, journalMemory);
    }

    public DetourConfig withSecrets(byte[] key, String password, String token) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, Optional.of(key),
                Optional.ofNullable(password), Optional.ofNullable(token), connectTimeout,
                readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits, instances,
                alertPrivateTargets, journalMemory);
    }

    public DetourConfig withTimeouts(Duration connect, Duration read) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey,
                adminPassword, adminToken, connect, read, recoveryTick, trustedProxies, shutdownGrace, demo,
                clientLimits, instances, alertPrivateTargets, journalMemory);
    }

    /** Demo mode: a built-in fake upstream, sample pool and request trickle. */
    public DetourConfig withDemo(boolean on) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword,
                adminToken, connectTimeout, readTimeout, recoveryTick, trustedProxies, shutdownGrace, on, clientLimits,
                instances, alertPrivateTargets, journalMemory);
    }

    /** Another data dir (journals, embedded database, generated secrets): tests give each fresh start its own. */
    public DetourConfig withDataDir(Path dir) {
        return new DetourConfig(bind, port, dir, dbUrl, dbUser, dbPassword, masterKey, adminPassword,
                adminToken, connectTimeout, readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits,
                instances, alertPrivateTargets, journalMemory);
    }

    /** slow and greedy client limits (tests set them small). */
    public DetourConfig withClientLimits(ClientLimits limits) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword,
                adminToken, connectTimeout, readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, limits,
                instances, alertPrivateTargets, journalMemory);
    }

    /** W-1: whether alert channels may send to loopback and private addresses ({@code DETOUR_ALERT_PRIVATE_TARGETS}). */
    public DetourConfig withAlertPrivateTargets(boolean allowed) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword,
                adminToken, connectTimeout, readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits,
                instances, allowed, journalMemory);
    }

    /** D-2: the event journal's memory folder (empty: segments mapped in the data dir). */
    public DetourConfig withJournalMemory(Optional<Path> folder) {
        return new DetourConfig(bind, port, dataDir, dbUrl, dbUser, dbPassword, masterKey, adminPassword,
                adminToken, connectTimeout, readTimeout, recoveryTick, trustedProxies, shutdownGrace, demo, clientLimits,
                instances, alertPrivateTargets, folder);
    }
}
