package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.adapter.api.Documents;
import dev.detour.adapter.crypto.SecretBox;
import dev.detour.adapter.db.MyBatisRequestEvents;
import dev.detour.adapter.db.MyBatisTransactions;
import dev.detour.admin.port.SettingValues;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Retention: only events older than the configured days go, in small batches. */
class RetentionIT {
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    @BeforeEach
    void fill() {
        TestDatabase.clean();
        // 1,000 events, one per hour from 2026-10-20 12:00: 40 days + … back from NOW
        Rows.execute("INSERT INTO request_events (request_id, endpoint, outcome, status, attempts_json, rejections_json, "
                + "latency_ms, created_at) SELECT LPAD(seq, 26, '0'), 'chat_completions', 'success', 200, '[]', '[]', 1, "
                + "TIMESTAMP'2026-10-20 12:00:00' + INTERVAL (seq - 1) HOUR FROM seq_1_to_1000");
    }

    @Test
    void purgeDeletesOnlyEventsOlderThanTheRetentionInBatches() {
        long old = Rows.number("SELECT COUNT(*) FROM request_events WHERE created_at < '2026-10-30 12:00:00'");
        assertEquals(240, old); // 10 days × 24 h before the 30-day cutoff
        Retention retention = new Retention(new MyBatisRequestEvents(TestDatabase.database()), () -> 30, 50);
        Retention.Result result = retention.purge(NOW);
        assertEquals(old, result.deleted());
        assertEquals(5, result.batches()); // 240 rows in batches of 50: 50,50,50,50,40
        assertEquals(1000 - old, Rows.number("SELECT COUNT(*) FROM request_events"));
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM request_events WHERE created_at < '2026-10-30 12:00:00'"));
        assertEquals(0, retention.purge(NOW).deleted(), "a second purge finds nothing");
    }

    @Test
    void theRetentionDaysSettingAppliesToTheNextPurge() {
        MyBatisTransactions transactions = new MyBatisTransactions(TestDatabase.database(), new SecretBox(new byte[32]));
        AuditLog audit = new AuditLog(transactions, Documents.AUDIT, Clock.fixed(NOW, ZoneOffset.UTC));
        SiteSettings settings = new SiteSettings(transactions, audit,
                Clock.fixed(NOW, ZoneOffset.UTC), SettingValues.defaults());
        Retention retention = new Retention(new MyBatisRequestEvents(TestDatabase.database()),
                () -> settings.current().retentionDays(), 100);
        settings.update(Map.of("retention_days", "10"), "admin");
        long expected = Rows.number("SELECT COUNT(*) FROM request_events WHERE created_at < '2026-11-19 12:00:00'");
        assertEquals(expected, retention.purge(NOW).deleted());
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM request_events WHERE created_at < '2026-11-19 12:00:00'"));
        assertEquals(1000 - expected, Rows.number("SELECT COUNT(*) FROM request_events"));
    }
}
