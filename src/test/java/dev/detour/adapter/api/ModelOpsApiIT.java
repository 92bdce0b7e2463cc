package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** SPEC §9 model pause / resume / clear / clear-all: rows as C-5 and the seed say, audited, revision bumped. */
class ModelOpsApiIT {
    private Gateway gw;
    private long id;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        id = gw.admin("POST", "/accounts", "{\"name\":\"relay-a\",\"group\":\"default\",\"platform\":\"openai-compatible\","
                + "\"base_url\":\"https://relay.example\",\"api_key\":\"sk-test-0123456789abcd\",\"model_mappings\":"
                + "[{\"from\":\"gpt-a\",\"to\":\"up-a\"},{\"from\":\"claude\",\"to\":\"vendor/model b\"}]}").path("id").asLong();
    }

    @AfterEach
    void stop() {
        gw.close();
    }

    @Test
    void pauseOfANeverFailedModelCreatesAPausedRowAndResumeDeletesIt() {
        long revision = revision();
        JsonNode paused = gw.admin("POST", "/accounts/" + id + "/models/up-a/pause", null);
        assertEquals(1, paused.path("changed").asInt());
        assertEquals(List.of("up-a:paused:0"), rows());
        assertEquals("paused", paused.path("state").path("models").path(0).path("status").asText());
        assertEquals(1, paused.path("state").path("unavailable_model_count").asInt());
        assertTrue(revision() > revision, "O-4: the pool revision moves");
        assertEquals(0, gw.admin("POST", "/accounts/" + id + "/models/up-a/pause", null).path("changed").asInt(),
                "pausing twice changes nothing");

        gw.admin("POST", "/accounts/" + id + "/models/up-a/resume", null);
        assertEquals(List.of(), rows());
        assertEquals(List.of("model.pause", "model.resume"),
                Sql.strings("SELECT action FROM audit_log WHERE action LIKE 'model.%' ORDER BY id"));
    }

    @Test
    void theModelKeyIsUrlDecoded() {
        gw.admin("POST", "/accounts/" + id + "/models/up%20a/pause", null);
        gw.admin("POST", "/accounts/" + id + "/models/%E6%A8%A1%E5%9E%8B/pause", null);
        assertEquals(List.of("up a:paused:0", "模型:paused:0"), rows());
    }

    @Test
    void clearKeepsAPausedRowsPauseButDropsItsFailureFields() {
        Sql.execute("INSERT INTO account_models (account_id, model_key, status, transient_failure_count, cooldown_until, "
                + "last_failure_kind, last_failure_message, created_at, updated_at) VALUES (" + id + ", 'up-a', 'paused', 3, "
                + "'2026-11-29 10:05:00', 'upstream_status', 'slow', NOW(3), NOW(3))");
        gw.admin("POST", "/accounts/" + id + "/models/up-a/clear", null);
        assertEquals(List.of("up-a:paused:0"), rows());
        assertEquals("-", Sql.string("SELECT IFNULL(cooldown_until, '-') FROM account_models WHERE model_key = 'up-a'"));
    }

    @Test
    void clearAllSkipsPausedAndHealthyRows() {
        Sql.execute("INSERT INTO account_models (account_id, model_key, status, transient_failure_count, cooldown_until, "
                + "created_at, updated_at) VALUES (" + id + ", 'cooling', 'ok', 1, '2026-11-29 10:05:00', NOW(3), NOW(3)), ("
                + id + ", 'broken', 'error', 10, NULL, NOW(3), NOW(3)), (" + id + ", 'held', 'paused', 2, NULL, NOW(3), NOW(3)), ("
                + id + ", 'healthy', 'ok', 0, NULL, NOW(3), NOW(3))");
        JsonNode answer = gw.admin("POST", "/accounts/" + id + "/models/clear-all", null);
        assertEquals(2, answer.path("changed").asInt());
        assertEquals(List.of("healthy:ok:0", "held:paused:2"), rows());
    }

    @Test
    void unknownAccountsActionsAndMethodsAreRefused() {
        assertEquals("not_found", gw.admin("POST", "/accounts/999/models/up-a/pause", null).path("error").path("code").asText());
        assertEquals("not_found", gw.admin("POST", "/accounts/" + id + "/models/up-a/explode", null).path("error").path("code").asText());
        assertFalse(gw.admin("GET", "/accounts/" + id + "/models/clear-all", null).path("error").isMissingNode());
        assertEquals(List.of(), rows());
    }

    private List<String> rows() {
        return Sql.strings("SELECT CONCAT(model_key, ':', status, ':', transient_failure_count) FROM account_models "
                + "WHERE account_id = " + id + " ORDER BY model_key");
    }

    private static long revision() {
        return Sql.number("SELECT revision FROM pool_revision WHERE id = 1");
    }
}
