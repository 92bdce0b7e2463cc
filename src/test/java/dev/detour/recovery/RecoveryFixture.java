package dev.detour.recovery;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.MyBatisPoolStore;
import dev.detour.adapter.db.MyBatisRecoveryStore;
import dev.detour.adapter.upstream.Http1UpstreamClient;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/** Plain SQL behind the API, and schedulers wired from a running App's parts. */
final class RecoveryFixture {
    static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"},"
            + "{\"from\":\"glm-5.3\",\"to\":\"upstream-glm\"}]";

    private RecoveryFixture() {
    }

    static void sql(String statement) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(statement, e);
        }
    }

    static List<String> strings(String query) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(query, e);
        }
    }

    static String status(long accountId) {
        return strings("SELECT status FROM accounts WHERE id = " + accountId).get(0);
    }

    static List<String> modelRows(long accountId) {
        return strings("SELECT CONCAT(model_key, ':', status) FROM account_models WHERE account_id = " + accountId
                + " ORDER BY model_key");
    }

    /** A model row as the failure engine would have left it; {@code cooling} = a cooldown 10 minutes out. */
    static void modelRow(Gateway gw, long accountId, String key, String status, boolean cooling) {
        String now = "'" + gw.clock.instant().toString().replace("T", " ").replace("Z", "") + "'";
        String until = cooling ? "TIMESTAMPADD(MINUTE, 10, " + now + ")" : "NULL";
        sql("INSERT INTO account_models (account_id, model_key, status, transient_failure_count, cooldown_until, "
                + "last_failure_kind, last_failure_message, created_at, updated_at) VALUES (" + accountId + ", '" + key
                + "', '" + status + "', 1, " + until + ", 'upstream_status', 'upstream returned 500', " + now + ", "
                + now + ")");
    }

    static void setStatus(long accountId, String status) {
        sql("UPDATE accounts SET status = '" + status + "', transient_failure_count = 1, "
                + "last_failure_kind = 'upstream_status' WHERE id = " + accountId);
    }

    static JsonNode model(JsonNode state, String key) {
        for (JsonNode m : state.path("models")) {
            if (m.path("model_key").asText().equals(key)) {
                return m;
            }
        }
        return null;
    }

    /** A second scheduler on the same database and pool, with its own budget, executor and holder id. */
    static RecoveryScheduler scheduler(Gateway gw, String holder, ProbeBudget budget, Executor executor) {
        MyBatisRecoveryStore store = new MyBatisRecoveryStore(gw.app.database());
        MyBatisPoolStore pool = new MyBatisPoolStore(gw.app.database(), Secrets.load(gw.app.config()).box());
        Http1UpstreamClient upstream = new Http1UpstreamClient(Duration.ofSeconds(5), Duration.ofSeconds(5));
        ModelTester tester = new ModelTester(upstream, gw.app.snapshot(), pool, store, gw.app.events(), gw.clock);
        return new RecoveryScheduler(store, gw.app.snapshot(), tester, budget,
                new LeaderLease(store, holder, Duration.ofSeconds(90)), executor, ZoneId.of("UTC"),
                Duration.ofSeconds(30));
    }
}
