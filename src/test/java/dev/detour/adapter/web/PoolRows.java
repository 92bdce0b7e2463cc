package dev.detour.adapter.web;

import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Seeds and reads pool state for the console ITs: accounts through the admin API, failure state by SQL. */
final class PoolRows {
    private PoolRows() {
    }

    /** An account in group "default" on a relay that is never called. */
    static long account(Gateway gw, String name, String mappingsJson) {
        return gw.admin("POST", "/accounts", "{\"name\":\"" + name + "\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"https://relay.example\",\"api_key\":\"sk-test-" + name
                + "-0123456789\",\"model_mappings\":" + mappingsJson + "}").path("id").asLong();
    }

    /** A model row; cooldownSeconds relative to the gateway clock (null = none). */
    static void modelRow(Gateway gw, long accountId, String modelKey, String status, int transientCount,
            Integer cooldownSeconds, String message, String responseJson) {
        String until = cooldownSeconds == null ? "NULL" : "'" + at(gw, cooldownSeconds) + "'";
        execute("INSERT INTO account_models (account_id, model_key, status, transient_failure_count, cooldown_until, "
                + "last_failure_kind, last_failure_message, last_failure_response_json, created_at, updated_at) VALUES ("
                + accountId + ", '" + modelKey + "', '" + status + "', " + transientCount + ", " + until + ", "
                + (message == null ? "NULL, NULL" : "'upstream_status', '" + message + "'") + ", "
                + (responseJson == null ? "NULL" : "'" + responseJson + "'") + ", NOW(3), NOW(3))");
    }

    static String at(Gateway gw, int secondsFromNow) {
        return gw.clock.instant().plusSeconds(secondsFromNow).toString().replace("T", " ").replace("Z", "");
    }

    /** "model_key:status:transient_count:cooling" per row, model_key order. */
    static List<String> models(long accountId) {
        return strings("SELECT CONCAT(model_key, ':', status, ':', transient_failure_count, ':', "
                + "IF(cooldown_until IS NULL, '-', 'cooling')) FROM account_models WHERE account_id = " + accountId
                + " ORDER BY model_key");
    }

    static void execute(String sql) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    static List<String> strings(String sql) {
        return Rows.strings(sql);
    }
}
