package dev.detour.gateway;

import dev.detour.testkit.Rows;
import java.util.List;

/** Plain JDBC against the shared test database, to look behind the gateway (bindings, halts, streaks). */
final class Db {
    private Db() {
    }

    static List<String> strings(String sql) {
        return Rows.strings(sql);
    }

    static String string(String sql) {
        List<String> rows = strings(sql);
        return rows.isEmpty() ? null : rows.get(0);
    }
}
