package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The embedded server runs with the caches Detour needs, not MariaDB's defaults for every engine (N-7: RSS). */
class EmbeddedMariaDbSettingsIT {

    @Test
    void theMyIsamAndAriaCachesAndTheRedoLogBufferAreSmallAndInnoDbKeepsItsBufferPool() throws Exception {
        EmbeddedMariaDb db = TestDatabase.server();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@key_buffer_size, @@aria_pagecache_buffer_size,"
                        + " @@innodb_buffer_pool_size, @@innodb_log_buffer_size")) {
            rs.next();
            assertEquals(EmbeddedMariaDb.KEY_BUFFER, rs.getLong(1));
            assertEquals(EmbeddedMariaDb.ARIA_PAGE_CACHE, rs.getLong(2));
            assertEquals(128L << 20, rs.getLong(3), "the request log's tables and indexes are cached as before");
            assertEquals(EmbeddedMariaDb.LOG_BUFFER, rs.getLong(4));
        }
    }

    /**
     * N-6: the serving server makes no TLS key and certificate at start (MariaDB 11.4 generates an RSA key for
     * every start that has none, seconds of CPU); it listens on 127.0.0.1 and its socket only.
     */
    @Test
    void theServingServerHasNoTls() throws Exception {
        EmbeddedMariaDb db = TestDatabase.server();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@have_ssl, @@bind_address")) {
            rs.next();
            assertEquals("DISABLED", rs.getString(1));
            assertEquals("127.0.0.1", rs.getString(2));
        }
    }
}
