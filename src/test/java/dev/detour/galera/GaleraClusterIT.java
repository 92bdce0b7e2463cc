package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.testkit.GaleraCluster;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** G-1: the harness's cluster replicates, survives a killed node, and the driver's failover URL moves on. */
class GaleraClusterIT {
    private static GaleraCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = GaleraCluster.shared();
        System.out.println("G-1 harness start time (3 nodes, 2 SSTs): " + cluster.startTime().toMillis() + " ms");
        cluster.emptySchema();
        update(1, "CREATE TABLE probe (id INT PRIMARY KEY, note VARCHAR(40) NOT NULL)");
    }

    @Test
    void aRowWrittenOnOneNodeIsReadOnTheOtherTwo() throws SQLException {
        update(2, "INSERT INTO probe (id, note) VALUES (1, 'written on node 2')");

        assertEquals("written on node 2", note(1, 1));
        assertEquals("written on node 2", note(3, 1));
    }

    @Test
    void aKilledNodeRejoinsAndHasTheWritesMadeWhileItWasDown() throws SQLException {
        cluster.killNode(3);
        update(1, "INSERT INTO probe (id, note) VALUES (2, 'written while node 3 was down')");

        cluster.startNode(3);

        assertEquals("written while node 3 was down", note(3, 2));
    }

    @Test
    void theFailoverUrlConnectsToTheNextNodeWhenItsFirstIsDown() throws SQLException {
        cluster.killNode(1);
        try (Connection c = DriverManager.getConnection(cluster.failoverUrl(1), cluster.user(), cluster.password());
                Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT @@port")) {
            r.next();
            assertEquals(cluster.sqlPort(2), r.getInt(1));
        } finally {
            cluster.startNode(1); // the driver keeps a failed host on its deny list for a while (deniedListTimeout)
        }
    }

    private static void update(int node, String sql) {
        try (Connection c = cluster.connectCausal(node); Statement s = c.createStatement()) {
            s.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static String note(int node, int id) throws SQLException {
        try (Connection c = cluster.connectCausal(node); Statement s = c.createStatement()) {
            try (ResultSet r = s.executeQuery("SELECT note FROM probe WHERE id = " + id)) {
                return r.next() ? r.getString(1) : null;
            }
        }
    }
}
