package dev.detour.gateway;

import dev.detour.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC against the shared test database, to look behind the gateway (bindings, halts, streaks). */
final class Db {
    private Db() {
    }

    static List<String> strings(String sql) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static String string(String sql) {
        List<String> rows = strings(sql);
        return rows.isEmpty() ? null : rows.get(0);
    }
}
