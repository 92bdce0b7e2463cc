package dev.detour.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {
    private static DetourConfig load(Map<String, String> env) {
        return new ConfigLoader(env, new Properties()).load();
    }

    @Test
    void defaultsFollowTheSpec() {
        DetourConfig c = load(Map.of());
        assertEquals("127.0.0.1", c.bind());
        assertEquals(8080, c.port());
        assertTrue(c.dataDir().endsWith("data"));
        assertTrue(c.embeddedDatabase());
        assertEquals(Duration.ofSeconds(20), c.connectTimeout());
        assertEquals(Duration.ofSeconds(180), c.readTimeout());
        assertEquals(Duration.ofSeconds(30), c.recoveryTick());
        assertEquals(List.of(), c.trustedProxies());
    }

    @Test
    void clientLimitsDefaultToTheX4ValuesAndFollowTheirVariables() {
        assertEquals(ClientLimits.DEFAULTS, load(Map.of()).clientLimits());
        assertEquals(new ClientLimits(Duration.ofSeconds(30), 1024, 256, 10_000, 256L << 20), ClientLimits.DEFAULTS);
        ClientLimits set = load(Map.of("DETOUR_CLIENT_TIMEOUT_SECONDS", "10", "DETOUR_MIN_REQUEST_BYTES_PER_SECOND", "0",
                "DETOUR_MAX_CONNECTIONS_PER_ADDRESS", "64", "DETOUR_MAX_ANONYMOUS_SESSIONS", "500",
                "DETOUR_BODY_BUDGET_MB", "64")).clientLimits();
        assertEquals(new ClientLimits(Duration.ofSeconds(10), 0, 64, 500, 64L << 20), set);
    }

    @Test
    void theInstanceCountIsReadLikeEveryOtherVariableAndABadOneStopsTheStart() {
        assertEquals(1, load(Map.of()).instances());
        assertEquals(3, load(Map.of("DETOUR_INSTANCES", "3")).instances());
        for (String bad : new String[] {"0", "three", "1001"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of("DETOUR_INSTANCES", bad)));
            assertTrue(e.getMessage().startsWith("DETOUR_INSTANCES"), e.getMessage());
        }
    }

    @Test
    void systemPropertiesInDottedFormWinOverTheEnvironment() {
        Properties props = new Properties();
        props.setProperty("detour.port", "9090");
        DetourConfig c = new ConfigLoader(Map.of("DETOUR_PORT", "7070", "DETOUR_DB_URL",
                "jdbc:mariadb://db:3306/detour"), props).load();
        assertEquals(9090, c.port());
        assertFalse(c.embeddedDatabase());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "DETOUR_PORT|eighty", "DETOUR_PORT|70000", "DETOUR_CONNECT_TIMEOUT_SECONDS|0",
        "DETOUR_READ_TIMEOUT_SECONDS|x", "DETOUR_RECOVERY_TICK_SECONDS|-1", "DETOUR_DB_URL|postgres://db",
        "DETOUR_MASTER_KEY|not-base64!", "DETOUR_MASTER_KEY|c2hvcnQ=", "DETOUR_ADMIN_PASSWORD|short",
        "DETOUR_ADMIN_TOKEN|tiny", "DETOUR_TRUSTED_PROXIES|10.0.0.0/8,not an ip", "DETOUR_DEMO|maybe",
        "DETOUR_CLIENT_TIMEOUT_SECONDS|0", "DETOUR_MIN_REQUEST_BYTES_PER_SECOND|-5",
        "DETOUR_MAX_CONNECTIONS_PER_ADDRESS|0", "DETOUR_MAX_ANONYMOUS_SESSIONS|lots", "DETOUR_BODY_BUDGET_MB|16"})
    void aBadValueFailsWithOneLineNamingTheVariable(String name, String value) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of(name, value)));
        assertTrue(e.getMessage().startsWith(name + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void anAdminTokenShorterThan32CharactersIsRefusedAtStartUpNamingTheVariable() {
        String thirtyOne = "a".repeat(31);
        ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of("DETOUR_ADMIN_TOKEN", thirtyOne)));
        assertTrue(e.getMessage().startsWith("DETOUR_ADMIN_TOKEN: must be at least 32 characters"), e.getMessage());
        assertFalse(e.getMessage().contains(thirtyOne), "the refused token is not echoed");
        assertEquals("b".repeat(32), load(Map.of("DETOUR_ADMIN_TOKEN", "b".repeat(32))).adminToken().orElseThrow());
    }

    @Test
    void demoModeIsOffByDefaultAndKeepsItsEmbeddedDatabaseApartFromARealPool() {
        assertFalse(load(Map.of()).demo());
        DetourConfig demo = load(Map.of("DETOUR_DEMO", "TRUE"));
        assertTrue(demo.demo());
        assertTrue(demo.dataDir().endsWith("data/demo"), demo.dataDir().toString());
        assertTrue(load(Map.of("DETOUR_DEMO", "1", "DETOUR_DATA_DIR", "/srv/try")).dataDir().endsWith("/srv/try"));
        assertFalse(load(Map.of("DETOUR_DEMO", "false")).demo());
    }

    @Test
    void alertChannelsReachPrivateAddressesOnlyWhenTheOperatorSaysSo() {
        assertFalse(load(Map.of()).alertPrivateTargets());
        assertTrue(load(Map.of("DETOUR_ALERT_PRIVATE_TARGETS", "true")).alertPrivateTargets());
        ConfigException e = assertThrows(ConfigException.class,
                () -> load(Map.of("DETOUR_ALERT_PRIVATE_TARGETS", "intranet")));
        assertTrue(e.getMessage().startsWith("DETOUR_ALERT_PRIVATE_TARGETS: "), e.getMessage());
    }

    @Test
    void theEventJournalMapsInDevShmUnlessTheOperatorNamesAnotherMemoryFolderOrOff() {
        assertEquals(Optional.of(Path.of("/dev/shm")), load(Map.of()).journalMemory());
        assertEquals(Optional.of(Path.of("/run/detour")),
                load(Map.of("DETOUR_JOURNAL_MEMORY_DIR", "/run/detour/")).journalMemory());
        assertEquals(Optional.empty(), load(Map.of("DETOUR_JOURNAL_MEMORY_DIR", "OFF")).journalMemory());
        ConfigException e = assertThrows(ConfigException.class,
                () -> load(Map.of("DETOUR_JOURNAL_MEMORY_DIR", "shm")));
        assertTrue(e.getMessage().startsWith("DETOUR_JOURNAL_MEMORY_DIR: "), e.getMessage());
    }

    @Test
    void demoModeIsRefusedWithAnExternalDatabaseSoItCannotSeedARealPool() {
        ConfigException e = assertThrows(ConfigException.class, () -> load(Map.of("DETOUR_DEMO", "true",
                "DETOUR_DB_URL", "jdbc:mariadb://db:3306/detour")));
        assertTrue(e.getMessage().startsWith("DETOUR_DEMO: "), e.getMessage());
        assertTrue(e.getMessage().contains("DETOUR_DB_URL"), e.getMessage());
    }
}
