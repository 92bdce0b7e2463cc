package dev.detour.gateway.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** D-1: what /readyz says about the database. */
class DatabaseHealthTest {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
    private final DatabaseHealth health = new DatabaseHealth(Clock.fixed(T0, ZoneOffset.UTC));

    @Test
    void aDatabaseThatAnswersIsReadyWithoutDetail() {
        DatabaseHealth.Readiness r = health.readiness(Duration.ofHours(5));
        assertTrue(r.ready());
        assertNull(r.unavailableSince());
    }

    @Test
    void anOutageKeepsTheInstanceReadyWhileTheSnapshotIsYoung() {
        health.failed(new SQLTransientConnectionException("Connection is not available"));
        DatabaseHealth.Readiness r = health.readiness(Duration.ofMinutes(9));
        assertTrue(r.ready());
        assertEquals(T0, r.unavailableSince());
    }

    @Test
    void anOutageWithAStaleSnapshotIsNotReady() {
        health.failed(new SQLTransientConnectionException("Connection is not available"));
        DatabaseHealth.Readiness r = health.readiness(DatabaseHealth.SNAPSHOT_MAX_AGE);
        assertFalse(r.ready());
        assertEquals(T0, r.unavailableSince());
    }

    @Test
    void theOutageKeepsItsFirstMomentAndEndsWithTheFirstAnswer() {
        health.failed(new SQLTransientConnectionException("first"));
        DatabaseHealth later = health;
        later.failed(new SQLTransientConnectionException("second"));
        assertEquals(T0, health.unavailableSince());
        assertEquals("SQLTransientConnectionException: first", health.readiness(Duration.ZERO).reason());
        health.answered();
        assertTrue(health.available());
        assertEquals(0, health.outageSeconds());
    }
}
