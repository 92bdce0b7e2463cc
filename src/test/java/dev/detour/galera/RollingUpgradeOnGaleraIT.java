package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.Reply;
import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.GaleraCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * G-6: the schema of version N+1 still serves version N. N is this build's jar, two instances on the cluster
 * behind nginx. N+1 is represented by what it brings to the database: its migration, numbered after the
 * newest in sql/, with one statement of each kind RollingUpgradeMigrationsTest lets a migration make (a new
 * table, a nullable column, a NOT NULL column with a default, an index) on the tables every request, failure
 * and edit of N writes. It is applied through node 1 as an N+1 instance applies it at start (Flyway, Detour's
 * migrations plus the next one) while N serves traffic. N is the real code that does not know the new schema;
 * what an N+1 jar's own code does with it is that version's business, not the roll's.
 */
class RollingUpgradeOnGaleraIT {
    private static final String MODEL = "gpt-roll";
    private static final Pattern VERSION = Pattern.compile("V(\\d+)__.*\\.sql");
    private static GaleraPool pool;

    @BeforeAll
    static void startVersionN() throws Exception {
        pool = GaleraPool.start("galera-roll", 2, "", List.of(MODEL), Map.of());
    }

    @AfterAll
    static void stopAll() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void versionNKeepsServingWritingAndRestartingOnTheSchemaOfVersionNPlusOne() throws Exception {
        int next = newestMigration() + 1;
        Path dir = nextVersionMigration(next);
        for (DetourProcess instance : pool.instances) { // the set-up's own requests are counted before, not during
            Traffic.awaitUpTo(Duration.ofMinutes(1), () -> GaleraPool.metric(instance, "detour_event_queue_depth") == 0,
                    "the set-up's events written");
        }
        long eventsBefore = GaleraPool.number(1, events());

        Traffic traffic = Traffic.start(pool, MODEL, "roll", 2);
        try {
            traffic.awaitMore(20, "N serving before the migration");
            Flyway.configure().dataSource(GaleraCluster.shared().nodeUrl(1), "detour", "detour")
                    .locations("classpath:db/migration", "filesystem:" + dir).load().migrate();
            assertEquals(String.valueOf(next), GaleraPool.text(2, "SELECT version FROM flyway_schema_history"
                    + " WHERE success = 1 ORDER BY installed_rank DESC LIMIT 1"), "N+1's migration is applied");
            traffic.awaitMore(30, "N serving on N+1's schema");
        } finally {
            traffic.stop();
        }
        System.out.println("G-6 N on N+1's schema: " + traffic.sent() + " requests through nginx during and after"
                + " the migration, answers " + traffic.answers());
        // X-4's 408 request.too_slow on the loaded machine is refused before the body is read: not the schema's
        assertEquals(List.of(), traffic.failedOtherThanBodyRate(), "no request of N failed");
        long expected = eventsBefore + traffic.served();
        Traffic.awaitUpTo(Duration.ofMinutes(2), () -> GaleraPool.number(1, events()) >= expected,
                "N's events are written into the new schema (" + expected + ")",
                () -> GaleraPool.eventsReport(events(), pool.instances));
        assertEquals(expected, GaleraPool.number(1, events()), "every request's event, once");

        DetourProcess first = pool.instances.get(0);
        // N's edits and failures write the tables N+1 widened: an account insert and update, a failure's rows
        long added = GaleraPool.admin(first, "POST", "/accounts", "{\"name\":\"after-roll\",\"group\":\"default\","
                + "\"platform\":\"openai-compatible\",\"base_url\":\"" + pool.upstream.url() + "\",\"api_key\":"
                + "\"sk-test-roll\",\"model_mappings\":[{\"from\":\"gpt-other\",\"to\":\"gpt-other\"}]}")
                .path("id").asLong();
        GaleraPool.admin(first, "PUT", "/accounts/" + added, "{\"weight\":7}");
        assertEquals(0, GaleraPool.number(1, "SELECT next_version_flag FROM accounts WHERE id = " + added),
                "N's insert took N+1's default");
        pool.upstream.handler(r -> Reply.openAiError(500, "upstream down", "server_error"));
        int failed = pool.status(first.url(), MODEL);
        assertTrue(failed >= 500, "the upstream's failure is answered as one: " + failed);
        for (DetourProcess instance : pool.instances) {
            Traffic.awaitUpTo(Duration.ofMinutes(1), () -> GaleraPool.metric(instance, "detour_state_writes_pending")
                    == 0, instance + " wrote its state changes");
        }
        assertTrue(GaleraPool.number(1, "SELECT COUNT(*) FROM account_models WHERE account_id = " + pool.accountId
                + " AND transient_failure_count > 0") > 0, "N's failure write landed on the widened account_models");
        pool.upstream.handler(r -> Reply.chatCompletion());

        // an N instance restarted during the roll starts on a schema with a migration newer than it knows
        first.sigterm();
        assertEquals(0, first.awaitExit(Duration.ofMinutes(2)));
        DetourProcess again = first.restart(Map.of("DETOUR_PORT", Integer.toString(first.port())));
        try {
            assertTrue(again.output().contains("Detour is ready"), "N restarted on N+1's schema");
            // the failure above cooled the account (10 s by default): served again once that has passed
            Traffic.awaitUpTo(Duration.ofMinutes(1), () -> pool.status(again.url(), MODEL) == 200,
                    "the restarted N serves");
        } finally {
            again.close();
        }
    }

    private static String events() {
        return "SELECT COUNT(*) FROM request_events WHERE requested_model = '" + MODEL + "'";
    }

    private static int newestMigration() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("sql"))) {
            return files.map(f -> VERSION.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
        }
    }

    /** N+1's migration: one statement of each kind a rolling upgrade allows, on the tables N writes. */
    private static Path nextVersionMigration(int version) throws IOException {
        Path dir = Path.of("target", "rolling-upgrade").toAbsolutePath();
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path f : old.toList()) {
                Files.delete(f);
            }
        }
        Files.writeString(dir.resolve("V" + version + "__next_version.sql"), """
                CREATE TABLE next_version_notes (
                  id   BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
                  note VARCHAR(64) NOT NULL
                ) ENGINE=InnoDB;
                ALTER TABLE request_events ADD COLUMN next_version_note VARCHAR(64) NULL;
                ALTER TABLE accounts ADD COLUMN next_version_flag TINYINT NOT NULL DEFAULT 0;
                ALTER TABLE account_models ADD COLUMN next_version_at DATETIME(6) NULL;
                ALTER TABLE detour_keys ADD COLUMN next_version_label VARCHAR(64) NULL;
                CREATE INDEX ix_request_events_next_version ON request_events (next_version_note);
                """);
        return dir;
    }
}
