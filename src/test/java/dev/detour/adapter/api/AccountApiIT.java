package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.App;
import dev.detour.adapter.crypto.SecretBox;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AccountApiIT {
    private static final MutableClock CLOCK = MutableClock.at("2026-11-29T10:00:00Z");
    private static App app;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        app = TestApp.start(CLOCK);
        admin = new AdminClient(app);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @BeforeEach
    void cleanWithOneGroup() {
        TestDatabase.clean();
        CLOCK.set(Instant.parse("2026-11-29T10:00:00Z"));
        assertEquals(201, admin.post("/groups", AccountBodies.group("cheap")).status());
    }

    @Test
    void accountSurvivesCreateReadUpdateDeleteWithTheContractFields() {
        var created = admin.post("/accounts", AccountBodies.account("relay-a-1"));
        assertEquals(201, created.status(), created.raw());
        var a = created.json();
        assertEquals("relay-a-1", a.path("name").asText());
        assertEquals("cheap", a.path("group").asText());
        assertEquals("openai-compatible", a.path("platform").asText());
        assertEquals("https://relay.example", a.path("base_url").asText());
        assertEquals("sk-…abcd", a.path("api_key_hint").asText());
        assertFalse(a.has("api_key"));
        assertEquals("upstream-glm", a.path("model_mappings").get(1).path("to").asText());
        assertEquals(true, a.path("failure_policy").path("cooldown_enabled").asBoolean());
        assertEquals("04:05", a.path("recovery").path("times").get(0).asText());
        assertEquals(21600, a.path("breaker").path("ladder_seconds").get(3).asInt());
        assertEquals("fixed", a.path("backoff").path("mode").asText());
        assertEquals("ok", a.path("state").path("status").asText());
        assertEquals(0, a.path("state").path("cooldown_remaining_s").asInt());
        assertEquals("2026-11-29T10:00:00Z", a.path("created_at").asText());

        long id = created.id();
        assertEquals(a, admin.get("/accounts/" + id).json());
        assertEquals(id, admin.get("/accounts").json().path("items").get(0).path("id").asLong());

        CLOCK.advance(Duration.ofMinutes(5));
        var updated = admin.put("/accounts/" + id, "{\"priority\":5,\"notes\":\"night relay\",\"unknown_field\":1}");
        assertEquals(200, updated.status(), updated.raw());
        assertEquals(5, updated.json().path("priority").asInt());
        assertEquals("night relay", updated.json().path("notes").asText());
        assertEquals(10, updated.json().path("weight").asInt());
        assertEquals(a.path("revision").asLong() + 1, updated.json().path("revision").asLong());
        assertEquals("2026-11-29T10:05:00Z", updated.json().path("updated_at").asText());

        assertEquals(204, admin.delete("/accounts/" + id).status());
        assertEquals("not_found", admin.get("/accounts/" + id).errorCode());
        assertEquals(404, admin.delete("/accounts/" + id).status());
    }

    @Test
    void apiKeyIsStoredAsCiphertextUnderTheAccountId() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        String cipher = Sql.string("SELECT api_key_cipher FROM accounts WHERE id = " + id);
        assertTrue(cipher.startsWith("v1:"), cipher);
        assertNotEquals(AccountBodies.API_KEY, cipher);
        assertFalse(cipher.contains("PLAINTEXT"));
        assertEquals(AccountBodies.API_KEY, new SecretBox(TestApp.MASTER_KEY).open(cipher, id));
        assertEquals(AccountBodies.API_KEY, app.accounts().apiKey(id));
    }

    @Test
    void noResponseEverContainsAPlaintextKey() {
        String secondKey = "sk-second-SECRETVALUE-9999wxyz";
        var created = admin.post("/accounts", AccountBodies.account("relay-a-1"));
        long id = created.id();
        var updated = admin.put("/accounts/" + id, "{\"api_key\":\"" + secondKey + "\"}");
        assertEquals("sk-…wxyz", updated.json().path("api_key_hint").asText());
        List<String> bodies = List.of(created.raw(), updated.raw(), admin.get("/accounts").raw(),
                admin.get("/accounts/" + id).raw(), admin.get("/audit").raw(),
                admin.delete("/accounts/" + id).raw(), admin.get("/audit?limit=500").raw());
        for (String body : bodies) {
            assertFalse(body.contains("PLAINTEXT") || body.contains("SECRETVALUE"), body);
        }
    }

    @Test
    void putWithoutApiKeyKeepsTheStoredKey() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        String cipher = Sql.string("SELECT api_key_cipher FROM accounts WHERE id = " + id);
        assertEquals(200, admin.put("/accounts/" + id, "{\"weight\":20,\"base_url\":\"http://other.example/x/v1\"}").status());
        assertEquals(cipher, Sql.string("SELECT api_key_cipher FROM accounts WHERE id = " + id));
        assertEquals(AccountBodies.API_KEY, app.accounts().apiKey(id));
        assertEquals("http://other.example/x", app.accounts().find(id).orElseThrow().baseUrl());
    }

    @Test
    void scheduledRecoveryTimesAreNormalizedDeduplicatedAndSorted() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        var bad = admin.put("/accounts/" + id, "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"3:00\",\"03:00\",\"23:5\"]}}");
        assertEquals(422, bad.status());
        assertEquals("validation.recovery_times", bad.errorCode());
        assertEquals("recovery.times", bad.json().path("error").path("field").asText());
        var ok = admin.put("/accounts/" + id, "{\"recovery\":{\"mode\":\"scheduled\",\"times\":[\"3:00\",\"03:00\",\"1:15\"]}}");
        assertEquals("[\"01:15\",\"03:00\"]", ok.json().path("recovery").path("times").toString());
        assertEquals("{\"mode\":\"scheduled\",\"times\":[\"01:15\",\"03:00\"]}",
                Sql.string("SELECT recovery_json FROM accounts WHERE id = " + id));
        var health = admin.put("/accounts/" + id, "{\"recovery\":{\"mode\":\"healthcheck\"}}");
        assertEquals(30, health.json().path("recovery").path("probe_interval_minutes").asInt());
        admin.put("/accounts/" + id, "{\"recovery\":{\"mode\":\"off\"}}");
        assertEquals(null, Sql.string("SELECT recovery_json FROM accounts WHERE id = " + id));
    }

    @Test
    void corruptStoredRecoveryReadsAsOffAndIsNeverOverwritten() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        Sql.execute("UPDATE accounts SET recovery_json = '{\"mode\":\"scheduled\",\"times\":[\"99:99\"' WHERE id = " + id);
        assertEquals("off", admin.get("/accounts/" + id).json().path("recovery").path("mode").asText());
        assertEquals("off", app.accounts().find(id).orElseThrow().recovery().mode());

        var refused = admin.put("/accounts/" + id, "{\"recovery\":{\"mode\":\"healthcheck\"}}");
        assertEquals(422, refused.status());
        assertEquals("validation.recovery_config_json", refused.errorCode());
        assertEquals(200, admin.put("/accounts/" + id, "{\"priority\":3}").status());
        assertEquals("{\"mode\":\"scheduled\",\"times\":[\"99:99\"",
                Sql.string("SELECT recovery_json FROM accounts WHERE id = " + id));
    }

    @Test
    void deletingAnAccountDeletesItsModelRows() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        Sql.execute("INSERT INTO account_models (account_id, model_key, status, created_at, updated_at) "
                + "VALUES (" + id + ", 'upstream-sol', 'paused', NOW(3), NOW(3))");
        assertEquals(1, Sql.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + id));
        assertEquals(204, admin.delete("/accounts/" + id).status());
        assertEquals(0, Sql.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + id));
    }

    @Test
    void everyChangeIsAuditedWithoutSecretsAndBumpsThePoolRevision() {
        long pool = Sql.number("SELECT revision FROM pool_revision WHERE id = 1");
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        admin.put("/accounts/" + id, "{\"api_key\":\"sk-rotated-SECRETVALUE-1234\",\"weight\":7}");
        admin.delete("/accounts/" + id);
        assertEquals(pool + 3, Sql.number("SELECT revision FROM pool_revision WHERE id = 1"));

        List<String> actions = Sql.strings("SELECT CONCAT(actor, ' ', action, ' ', target_type, ' ', target_id) "
                + "FROM audit_log WHERE target_type = 'account' ORDER BY id");
        assertEquals(List.of("admin-token account.create account " + id, "admin-token account.update account " + id,
                "admin-token account.delete account " + id), actions);
        String update = Sql.string("SELECT CONCAT(before_json, ' ', after_json) FROM audit_log WHERE action = 'account.update'");
        assertTrue(update.contains("\"weight\":10") && update.contains("\"weight\":7"), update);
        assertTrue(update.contains("sk-…1234"), update);
        for (String row : Sql.strings("SELECT CONCAT_WS(' ', before_json, after_json) FROM audit_log")) {
            assertFalse(row.contains("PLAINTEXT") || row.contains("SECRETVALUE") || row.contains("\"api_key\""), row);
        }
        var audit = admin.get("/audit?limit=2").json().path("items");
        assertEquals(2, audit.size());
        assertEquals("account.delete", audit.get(0).path("action").asText());
        assertTrue(audit.get(0).path("after").isNull());
    }

    @Test
    void repositoryMapsEveryFailureColumnAndTheStateShowsTheCooldown() {
        long id = admin.post("/accounts", AccountBodies.account("relay-a-1")).id();
        Sql.execute("UPDATE accounts SET status = 'error', transient_failure_count = 3, "
                + "next_retry_at = '2026-11-29 10:00:08', cooldown_until = '2026-11-29 10:00:07.500', "
                + "last_failure_kind = 'upstream_status', last_failure_message = 'upstream returned 429', "
                + "last_failure_response_json = '{}', semantic_failure_streak_count = 2, "
                + "semantic_failure_streak_fingerprint = 'sha256:ab', breaker_failure_streak = 4, breaker_step = 1, "
                + "breaker_open_until = '2026-11-29 10:30:00', backoff_streak = 5 WHERE id = " + id);
        var account = app.accounts().loadAll().get(0);
        var f = account.failure();
        assertEquals("error", account.status().wire());
        assertEquals(3, f.transientFailureCount());
        assertEquals("2026-11-29T10:00:08Z", f.nextRetryAt().toString());
        assertEquals("2026-11-29T10:00:07.500Z", f.cooldownUntil().toString());
        assertEquals("upstream_status", f.lastFailureKind());
        assertEquals("upstream returned 429", f.lastFailureMessage());
        assertEquals("{}", f.lastFailureResponse());
        assertEquals(2, f.semanticStreakCount());
        assertEquals("sha256:ab", f.semanticStreakFingerprint());
        assertEquals(4, f.breakerFailureStreak());
        assertEquals(1, f.breakerStep());
        assertEquals("2026-11-29T10:30:00Z", f.breakerOpenUntil().toString());
        assertEquals(5, f.backoffStreak());
        assertEquals("cheap", app.accounts().groups().get(account.groupId()).name());

        var state = admin.get("/accounts/" + id).json().path("state");
        assertEquals("error", state.path("status").asText());
        assertEquals(3, state.path("transient_failure_count").asInt());
        assertEquals(8, state.path("cooldown_remaining_s").asInt());
        assertEquals(1800, state.path("breaker_remaining_s").asInt());
        assertEquals("upstream returned 429", state.path("last_failure_message").asText());
    }

    @Test
    void groupCanBeGivenByIdAndPlatformChangeMovesDefaultFamilies() {
        long groupId = admin.get("/groups").json().path("items").get(0).path("id").asLong();
        ObjectNode body = AccountBodies.account("relay-a-1");
        body.remove("group");
        body.put("group_id", groupId).put("platform", "anthropic");
        var created = admin.post("/accounts", body);
        assertEquals(201, created.status(), created.raw());
        // B-1: the conversational endpoints it does not speak are served through the bridge
        assertEquals("[\"chat_completions\",\"responses\",\"messages\",\"count_tokens\",\"models\"]",
                created.json().path("endpoint_families").toString());
        assertEquals("[\"messages\"]", created.json().path("protocols").toString());
        var moved = admin.put("/accounts/" + created.id(), "{\"platform\":\"openai\"}");
        assertTrue(moved.json().path("endpoint_families").toString().contains("chat_completions"), moved.raw());
        assertEquals("[\"chat_completions\",\"responses\"]", moved.json().path("protocols").toString());
        var refused = admin.put("/accounts/" + created.id(), "{\"endpoint_families\":[\"count_tokens\"]}");
        assertEquals("validation.endpoint_family", refused.errorCode());
        var notSpoken = admin.put("/accounts/" + created.id(), "{\"protocols\":[\"messages\"]}");
        assertEquals("validation.protocols", notSpoken.errorCode()); // an OpenAI account cannot speak Messages
    }

    @Test
    void duplicateNamesConflictAndBadBodiesAreRejected() {
        admin.post("/accounts", AccountBodies.account("relay-a-1"));
        var duplicate = admin.post("/accounts", AccountBodies.account("relay-a-1"));
        assertEquals(409, duplicate.status());
        assertEquals("conflict.duplicate_name", duplicate.errorCode());
        assertEquals("name", duplicate.json().path("error").path("field").asText());
        long other = admin.post("/accounts", AccountBodies.account("relay-a-2")).id();
        assertEquals("conflict.duplicate_name", admin.put("/accounts/" + other, "{\"name\":\"relay-a-1\"}").errorCode());

        for (String body : new String[] {"{", "", "[1]", "{\"name\":\"x\"} trailing", "null"}) {
            var response = admin.send("POST", "/accounts", body);
            assertEquals(400, response.status(), body);
            assertEquals("request.invalid_json", response.errorCode(), body);
        }
        assertEquals("not_found", admin.get("/accounts/abc").errorCode());
        assertEquals("not_found", admin.put("/accounts/999999", "{}").errorCode());
        assertEquals("not_found", admin.get("/nothing").errorCode());
        assertEquals(405, admin.send("PATCH", "/accounts", "{}").status());
    }
}
