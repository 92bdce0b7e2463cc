package dev.detour.testkit;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Plain JDBC on the shared test database: bulk test rows and looks behind the application. */
public final class Rows {
    private Rows() {
    }

    public static int execute(String sql) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    public static long number(String sql) {
        List<String> rows = strings(sql);
        return rows.isEmpty() || rows.get(0) == null ? 0 : Long.parseLong(rows.get(0));
    }

    public static List<String> strings(String sql) {
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

    /** The named column of the first row (e.g. of an EXPLAIN). */
    public static String column(String sql, String name) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(name) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /**
     * Inserts {@code count} request events, one per second from {@code firstAt} (ids ascend with
     * time), spread over keys 1–3, accounts 1–5, groups 1–2, models m0–m3, the four outcomes,
     * latency {@code n % 1000} ms, TTFT {@code n % 500} ms on even n, 10 + n % 7 tokens, 3 µ$ cost.
     */
    public static void insertEvents(int count, String firstAt) {
        execute("INSERT INTO request_events (request_id, key_id, endpoint, requested_model, model_key, stream, "
                + "account_id, group_id, outcome, status, error_code, reason_code, attempts_json, rejections_json, "
                + "input_tokens, output_tokens, cost_micros, ttft_ms, latency_ms, client_ip, created_at) "
                + "SELECT LPAD(seq, 26, '0'), seq % 3 + 1, 'chat_completions', CONCAT('m', seq % 4), NULL, seq % 2 = 0, "
                + "seq % 5 + 1, seq % 2 + 1, ELT(seq % 4 + 1, 'success', 'failure', 'client_error', 'cancelled'), "
                + "ELT(seq % 4 + 1, 200, 502, 400, 499), IF(seq % 4 = 1, 'upstream.failed', NULL), NULL, '[]', '[]', "
                + "10, seq % 7, 3, IF(seq % 2 = 0, seq % 500, NULL), seq % 1000, '127.0.0.1', "
                + "TIMESTAMP'" + firstAt + "' + INTERVAL (seq - 1) SECOND FROM seq_1_to_" + count);
    }
}
