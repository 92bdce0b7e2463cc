package dev.detour.adapter.api;

import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Plain JDBC against the shared test database: to look behind the API or corrupt a column on purpose. */
final class Sql {
    private Sql() {
    }

    static void execute(String sql) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static String string(String sql) {
        List<String> rows = strings(sql);
        return rows.isEmpty() ? null : rows.get(0);
    }

    static long number(String sql) {
        return Long.parseLong(string(sql));
    }

    static List<String> strings(String sql) {
        return Rows.strings(sql);
    }
}
